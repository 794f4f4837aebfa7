import { Catch, type ArgumentsHost } from '@nestjs/common';
import { isStorageFailure } from '@tps/database';
import { ContractExceptionFilter } from '@tps/http';
import { ApiMetrics } from './api-metrics';

/** The contract's error answers, counting those the storage caused (503 INT-002). */
@Catch()
export class MeteredExceptionFilter extends ContractExceptionFilter {
  constructor(private readonly metrics: ApiMetrics) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (isStorageFailure(exception)) this.metrics.storageFailed();
    super.catch(exception, host);
  }
}
