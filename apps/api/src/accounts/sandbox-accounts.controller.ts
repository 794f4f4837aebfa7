import { Body, Controller, Delete, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { PublicRoute } from '../auth/public-route.decorator';
import { AddressRateLimiter } from './address-rate-limiter';
import { CreateAccountDto } from './create-account.dto';
import { SandboxAccounts, type CreatedAccount, type ResetAnswer } from './sandbox-accounts';

/** Sandbox accounts for CI, and the reset of one (contract §14; sandbox profile only). */
@ApiTags('sandbox')
@Controller('sandbox')
export class SandboxAccountsController {
  constructor(
    private readonly accounts: SandboxAccounts,
    private readonly limiter: AddressRateLimiter,
  ) {}

  @Post('accounts')
  @PublicRoute()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an isolated merchant with its own fleet and clock (no signature; limited per address)',
  })
  async create(@Req() request: Request, @Body() body: CreateAccountDto): Promise<CreatedAccount> {
    await this.limiter.consume(request.ip ?? request.socket.remoteAddress ?? 'unknown');
    return this.accounts.create(body);
  }

  @Delete('accounts/me')
  @HttpCode(204)
  @ApiBasicAuth()
  @ApiOperation({ summary: 'Delete the calling account, its terminals and all its data' })
  async remove(@CurrentMerchant() merchant: MerchantEntity): Promise<void> {
    await this.accounts.remove(merchant);
  }

  @Post('reset')
  @HttpCode(200)
  @ApiBasicAuth()
  @ApiOperation({
    summary:
      "Erase the caller's transactions, deliveries and print jobs; clock back to real time; terminals idle, online, printer ok",
  })
  reset(@CurrentMerchant() merchant: MerchantEntity): Promise<ResetAnswer> {
    return this.accounts.reset(merchant);
  }
}
