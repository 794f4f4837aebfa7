import { Module } from '@nestjs/common';
import { MaintenanceLease } from './maintenance-lease';
import { RetentionSweep } from './retention-sweep';

/** Retention (contract, "Retention"), in every profile. */
@Module({ providers: [MaintenanceLease, RetentionSweep] })
export class RetentionModule {}
