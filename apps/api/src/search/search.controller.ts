import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SearchAnswer } from '@tps/contracts';
import { OnlineTransactionSearchDto, SearchAnswerDoc, TransactionSearchDto } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalLinks } from '../link/terminal-links';
import { ApiConfig } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { Terminal, bothForms, type TerminalTarget } from '../terminals/terminal-target.decorator';
import { OnlineSearch } from './online-search';
import { searchFilters } from './search-filters';

const FILTERS =
  'Filters are optional and combine with AND; `limit` is 1 to 100 (20 when omitted) and `cursor` is the `next_cursor` of the previous page.';

/** Every search answers one page of the same shape. */
const ANSWER = ApiOkResponse({
  type: SearchAnswerDoc,
  description: 'one page of transactions, newest first',
});

/** Transaction search (contract §7), online (the service's records) and local (the terminal's). */
@ApiTags('transaction search')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class SearchController {
  constructor(
    private readonly config: ApiConfig,
    private readonly online: OnlineSearch,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  @Post(bothForms('sync/transaction_search_online'))
  @HttpCode(200)
  @ANSWER
  @ApiOperation({
    summary: "Online search: the service's records of the whole merchant",
    description: `The service's records of the merchant, in both forms; the Cloud form names one of the merchant's terminals and still covers the whole merchant (\`terminal_serial\` narrows it). ${FILTERS}`,
  })
  @ApiErrors('PAR-002', 'NF-002')
  async onlineSearch(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: OnlineTransactionSearchDto,
  ): Promise<SearchAnswer> {
    if (target.serial !== undefined) await this.resolver.resolve(merchant, target.serial);
    this.messages.publish('search.call', {
      merchantId: merchant.merchantId,
      clientTransactionId: body.client_transaction_id,
    });
    return this.online.search(merchant, searchFilters(body));
  }

  /** Asks the terminal over the link of the request's form, as its point of sale would. */
  @Post(bothForms('sync/transaction_search_local'))
  @HttpCode(200)
  @ANSWER
  @ApiOperation({
    summary: "Local search: the terminal's own store",
    description: `The terminal's own store, which also holds what an offline terminal has not sent yet; \`business_state\` is null. ${FILTERS}`,
  })
  @ApiErrors('PAR-002', TERMINAL_ROUTE_ERRORS)
  async localSearch(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: TransactionSearchDto,
  ): Promise<SearchAnswer> {
    const terminal = await this.resolver.resolve(merchant, target.serial);
    this.messages.publish('search.call', {
      merchantId: merchant.merchantId,
      clientTransactionId: body.client_transaction_id,
    });
    return this.links.send<SearchAnswer>(
      terminal,
      target.form,
      { type: 'search', merchantId: merchant.merchantId, filters: searchFilters(body) },
      this.config.TERMINAL_REPLY_TIMEOUT_MS,
    );
  }
}
