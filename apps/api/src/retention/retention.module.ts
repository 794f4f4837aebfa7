import { Global, Module } from '@nestjs/common';
import { AccountActivity } from './account-activity';
import { MaintenanceLease } from './maintenance-lease';
import { RetentionSweep } from './retention-sweep';

/** Retention (contract, "Retention"), in every profile; the guard stamps account activity. */
@Global()
@Module({
  providers: [AccountActivity, MaintenanceLease, RetentionSweep],
  exports: [AccountActivity],
})
export class RetentionModule {}
