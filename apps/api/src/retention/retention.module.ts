import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RetentionRows, SerialWriter, portsOf } from '@tps/database';
import { MaintenanceLease } from './maintenance-lease';
import { OutboxReadings } from './outbox-readings';
import { RetentionSweep } from './retention-sweep';
import { RoutedRequestSweep } from './routed-request-sweep';

/**
 * Retention (contract, "Retention"), in every profile; what dead replicas' callers left behind;
 * and the readings of the whole cluster's outbox for the metrics. Each by one replica at a time.
 */
@Module({
  providers: [
    MaintenanceLease,
    RetentionSweep,
    RoutedRequestSweep,
    OutboxReadings,
    {
      provide: RetentionRows,
      useFactory: (reads: DataSource, writer: SerialWriter) => portsOf(reads).retentionRows(reads, writer),
      inject: [DataSource, SerialWriter],
    },
  ],
})
export class RetentionModule {}
