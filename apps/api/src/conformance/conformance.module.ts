import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { ConformanceRunsController } from './conformance-runs.controller';
import { ReplicaRouting } from '../routing/replica-routing';
import { ConformanceRuns, RUN_MS } from './conformance-runs';
import { PostgresRunRows } from './postgres/postgres-run-rows';
import { LocalRunRecords, RUN_RECORDS, type RunRecords } from './run-records';
import { RunTransactions } from './run-transactions';
import { StoredRunRecords } from './stored-run-records';

/** The webhook-consumer conformance run (contract §17, sandbox profile only). */
@Module({
  imports: [PaymentsModule, SandboxModule, TransactionsModule],
  controllers: [ConformanceRunsController],
  providers: [
    ConformanceRuns,
    RunTransactions,
    {
      provide: RUN_RECORDS,
      // In the database when replicas share it (contract, "The conformance run").
      useFactory: (replicas: ReplicaRouting): RunRecords =>
        replicas.cluster === undefined
          ? new LocalRunRecords()
          : new StoredRunRecords(new PostgresRunRows(replicas.cluster.dataSource), RUN_MS, () => Date.now()),
      inject: [ReplicaRouting],
    },
  ],
})
export class ConformanceModule {}
