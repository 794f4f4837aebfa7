import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { SearchAnswer } from '@tps/contracts';
import { OnlineTransactionSearchDto, TransactionSearchDto } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalLinks } from '../link/terminal-links';
import { ApiConfig } from '../config/api-config';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import type { RequestForm } from '../transactions/transaction.entity';
import { OnlineSearch } from './online-search';
import { searchFilters } from './search-filters';

/** Transaction search (contract §7), online (the service's records) and local (the terminal's). */
@ApiTags('transaction search')
@ApiBasicAuth()
@ApiHeader({ name: 'timestamp', required: true, description: 'Unix time in seconds' })
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
  @ApiOperation({ summary: "Online search: the service's records of the whole merchant (Local form)" })
  onlineLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: OnlineTransactionSearchDto,
  ): Promise<SearchAnswer> {
    return this.online.search(merchant, searchFilters(body));
  }

  @Post(':terminalSerial/sync/transaction_search_online')
  @HttpCode(200)
  @ApiOperation({ summary: "Online search: the service's records of the whole merchant (Cloud form)" })
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
  @ApiOperation({ summary: "Local search: the bound terminal's own store (Local form)" })
  localLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: TransactionSearchDto,
  ): Promise<SearchAnswer> {
    return this.local(merchant, 'local', undefined, body);
  }

  @Post(':terminalSerial/sync/transaction_search_local')
  @HttpCode(200)
  @ApiOperation({ summary: "Local search: the terminal's own store (Cloud form)" })
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
