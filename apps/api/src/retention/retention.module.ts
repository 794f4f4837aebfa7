import { Module } from '@nestjs/common';
import { MaintenanceLease } from './maintenance-lease';
import { RetentionSweep } from './retention-sweep';
import { RoutedRequestSweep } from './routed-request-sweep';

/** Retention (contract, "Retention"), in every profile; and what dead replicas' callers left behind. */
@Module({ providers: [MaintenanceLease, RetentionSweep, RoutedRequestSweep] })
export class RetentionModule {}
