import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { ConformanceRunsController } from './conformance-runs.controller';
import { ConformanceRuns } from './conformance-runs';
import { RunTransactions } from './run-transactions';

/** The webhook-consumer conformance run (contract §17, sandbox profile only). */
@Module({
  imports: [PaymentsModule, SandboxModule, TransactionsModule],
  controllers: [ConformanceRunsController],
  providers: [ConformanceRuns, RunTransactions],
})
export class ConformanceModule {}
