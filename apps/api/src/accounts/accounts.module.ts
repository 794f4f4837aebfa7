import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { AccountCreationGate } from './account-creation-gate';
import { AccountRepository } from './account.repository';
import { AddressRateLimiter } from './address-rate-limiter';
import { SandboxAccounts } from './sandbox-accounts';
import { SandboxAccountsController } from './sandbox-accounts.controller';

/** Sandbox accounts and reset (contract §14); registered in the sandbox profile only. */
@Module({
  controllers: [SandboxAccountsController],
  providers: [AccountRepository, AccountCreationGate, AddressRateLimiter, SandboxAccounts, MerchantClock],
})
export class AccountsModule {}
