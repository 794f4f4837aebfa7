import { Body, Controller, Delete, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { PublicRoute } from '../auth/public-route.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { Capacity } from '../caps/capacity';
import { clientAddressOf } from '../http/client-address';
import { TakesNoBody } from '../http/takes-no-body';
import { AccountCreationGate } from './account-creation-gate';
import { AddressRateLimiter } from './address-rate-limiter';
import { CreateAccountDto } from './create-account.dto';
import {
  DEFAULT_TERMINALS,
  SandboxAccounts,
  type CreatedAccount,
  type ResetAnswer,
} from './sandbox-accounts';
import { CreatedAccountDoc, ResetAnswerDoc } from './sandbox-accounts.doc';

/** Sandbox accounts for CI, and the reset of one (contract §14; sandbox profile only). */
@ApiTags('sandbox')
@Controller('sandbox')
export class SandboxAccountsController {
  constructor(
    private readonly accounts: SandboxAccounts,
    private readonly limiter: AddressRateLimiter,
    private readonly gate: AccountCreationGate,
    private readonly capacity: Capacity,
  ) {}

  @Post('accounts')
  @PublicRoute()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an isolated merchant with its own fleet and clock (no signature; limited per address)',
    description:
      'A CI job makes its own account: credentials, terminals (the first bound for the Local form), clock and webhook secret of its own, every terminal linked before the answer. Limited per client address (429 RATE-001 with Retry-After). A hosted sandbox with an account-creation token asks for it as `Authorization: Bearer <token>` (401 AUTH-003 without it), and may allow fewer terminals (400 PAR-002). Hard caps: accounts alive per client address (409 CAP-001), accounts made per client address in an hour (429 CAP-002), terminals of the whole service (429 CAP-003), each named with its value in the message.',
  })
  @ApiCreatedResponse({ type: CreatedAccountDoc, description: 'the new account, linked and ready' })
  @ApiErrors('PAR-002', 'AUTH-003', 'RATE-001', 'CAP-001', 'CAP-002', 'CAP-003', 'TER-001', 'INT-002')
  async create(@Req() request: Request, @Body() body: CreateAccountDto): Promise<CreatedAccount> {
    // The token first (401 before 429, contract §4): a stranger spends no address's budget.
    this.gate.check(request);
    const address = clientAddressOf(request);
    await this.limiter.consume(address);
    const done = await this.capacity.admitAccount(address, body.terminals ?? DEFAULT_TERMINALS);
    let made: string | undefined;
    try {
      const account = await this.accounts.create(body);
      made = account.merchant_id;
      return account;
    } finally {
      done(made);
    }
  }

  @Delete('accounts/me')
  @TakesNoBody()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete the calling account, its terminals and all its data',
    description:
      'Its credentials get 401 afterwards. The shared demo merchants cannot be deleted (409 TRX-006).',
  })
  @ApiNoContentResponse({ description: 'the account is gone' })
  @ApiErrors('TRX-006')
  async remove(@CurrentMerchant() merchant: MerchantEntity): Promise<void> {
    await this.accounts.remove(merchant.merchantId);
  }

  @Post('reset')
  @TakesNoBody()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Erase the caller's transactions, deliveries and print jobs; clock back to real time; terminals idle, online, printer ok",
    description: 'Credentials, fleet, pace and webhook secret are kept.',
  })
  @ApiOkResponse({ type: ResetAnswerDoc, description: 'the caller is back to a clean state' })
  @ApiErrors('TER-001', 'TER-002')
  reset(@CurrentMerchant() merchant: MerchantEntity): Promise<ResetAnswer> {
    return this.accounts.reset(merchant);
  }
}
