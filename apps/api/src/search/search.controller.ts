import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { SearchAnswer } from '@tps/contracts';
import { OnlineTransactionSearchDto, SearchAnswerDoc, TransactionSearchDto } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalLinks } from '../link/terminal-links';
import { ApiConfig } from '../config/api-config';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import type { RequestForm } from '../transactions/transaction.entity';
import { OnlineSearch } from './online-search';
import { searchFilters } from './search-filters';

const FILTERS =
  'Filters are optional and combine with AND; `limit` is 1 to 100 (20 when omitted) and `cursor` is the `next_cursor` of the previous page.';
const ONLINE = `The service's records of the merchant, in both forms. ${FILTERS}`;
const LOCAL = `The terminal's own store, which also holds what an offline terminal has not sent yet; \`business_state\` is null. ${FILTERS}`;

/** Transaction search (contract §7), online (the service's records) and local (the terminal's). */
/** Every search answers one page of the same shape. */
const ANSWER = ApiOkResponse({
  type: SearchAnswerDoc,
  description: 'one page of transactions, newest first',
});

@ApiTags('transaction search')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class SearchController {
  constructor(
    private readonly config: ApiConfig,
    private readonly online: OnlineSearch,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
  ) {}

  @Post('sync/transaction_search_online')
  @HttpCode(200)
  @ANSWER
  @ApiOperation({
    summary: "Online search: the service's records of the whole merchant (Local form)",
    description: ONLINE,
  })
  @ApiErrors('PAR-002')
  onlineLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: OnlineTransactionSearchDto,
  ): Promise<SearchAnswer> {
    return this.online.search(merchant, searchFilters(body));
  }

  @Post(':terminalSerial/sync/transaction_search_online')
  @HttpCode(200)
  @ANSWER
  @ApiOperation({
    summary: "Online search: the service's records of the whole merchant (Cloud form)",
    description: `${ONLINE} The path names one of the merchant's terminals; the search still covers the whole merchant.`,
  })
  @ApiErrors('PAR-002', 'NF-002')
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  async onlineCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: OnlineTransactionSearchDto,
  ): Promise<SearchAnswer> {
    // The path names one of the merchant's terminals; the search still covers the whole merchant.
    await this.resolver.resolve(merchant, serial);
    return this.online.search(merchant, searchFilters(body));
  }

  @Post('sync/transaction_search_local')
  @HttpCode(200)
  @ANSWER
  @ApiOperation({ summary: "Local search: the bound terminal's own store (Local form)", description: LOCAL })
  @ApiErrors('PAR-002', TERMINAL_ROUTE_ERRORS)
  localLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: TransactionSearchDto,
  ): Promise<SearchAnswer> {
    return this.local(merchant, 'local', undefined, body);
  }

  @Post(':terminalSerial/sync/transaction_search_local')
  @HttpCode(200)
  @ANSWER
  @ApiOperation({ summary: "Local search: the terminal's own store (Cloud form)", description: LOCAL })
  @ApiErrors('PAR-002', TERMINAL_ROUTE_ERRORS)
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  localCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: TransactionSearchDto,
  ): Promise<SearchAnswer> {
    return this.local(merchant, 'cloud', serial, body);
  }

  /** Asks the terminal over the link of the request's form, as its point of sale would. */
  private async local(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    body: TransactionSearchDto,
  ): Promise<SearchAnswer> {
    const terminal = await this.resolver.resolve(merchant, serial);
    return this.links.send<SearchAnswer>(
      terminal,
      form,
      { type: 'search', merchantId: merchant.merchantId, filters: searchFilters(body) },
      this.config.TERMINAL_REPLY_TIMEOUT_MS,
    );
  }
}
