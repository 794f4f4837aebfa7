import type { PrintJobStatus } from '@tps/domain';
import type { PrintCommand } from '@tps/contracts';

/** A print job the service hands to a terminal's printer, after validating it. */
export interface PrintOrder {
  printJobId: string;
  merchantId: string;
  commands: PrintCommand[];
  /** Empty string when the caller gave none. The service, not the terminal, calls it back. */
  webhookUrl: string;
  /** Empty string when the caller gave none. */
  externalReference: string;
  /** The merchant's sandbox clock offset, so the terminal dates the job on the merchant's clock. */
  clockOffsetMs: number;
}

/**
 * A print job as the terminal reports it up its uplink after each change. A report carries the
 * whole state, so a later one stands for any the link could not carry.
 */
export interface PrintJobReport {
  printJobId: string;
  status: PrintJobStatus;
  updatedAt: string;
  errorCode?: string;
  errorMessage?: string;
  printedText?: string;
}
