import { Catch, type ArgumentsHost } from '@nestjs/common';
import { isStorageFailure, timeoutKindOf } from '@tps/database';
import { ContractExceptionFilter } from '@tps/http';
import { ApiMetrics } from './api-metrics';
import { DatabaseMetrics } from './database-metrics';

/**
 * The contract's error answers, counting those the storage caused (503 INT-002), and the waits
 * on the database that ended at their bound (504 INT-003 too).
 */
@Catch()
export class MeteredExceptionFilter extends ContractExceptionFilter {
  constructor(
    private readonly metrics: ApiMetrics,
    private readonly database: DatabaseMetrics,
  ) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (isStorageFailure(exception)) this.metrics.storageFailed();
    const timeout = timeoutKindOf(exception);
    if (timeout !== undefined) this.database.timedOut(timeout);
    super.catch(exception, host);
  }
}
