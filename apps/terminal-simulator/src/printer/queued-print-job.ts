import type { PrintOrder } from '@tps/link';
import type { TerminalPrintJobEntity } from './terminal-print-job.entity';

/** A job as it is first queued: PENDING, at its first version, none of it reported yet. */
export function queuedPrintJob(
  serialNumber: string,
  order: PrintOrder,
  at: string,
): Omit<TerminalPrintJobEntity, 'seq'> {
  return {
    printJobId: order.printJobId,
    serialNumber,
    order,
    status: 'PENDING',
    errorCode: null,
    errorMessage: null,
    printedText: null,
    version: 1,
    reportedVersion: 0,
    updatedAt: at,
  };
}
