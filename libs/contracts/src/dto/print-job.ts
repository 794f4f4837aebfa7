import type { PrintJobStatus } from '@tps/domain';

/** Wire shapes of print jobs (contract §12), free of any framework so every side can use them. */

export const PRINT_COMMAND_TYPES = ['text', 'qr', 'barcode', 'feed', 'cut'] as const;
export type PrintCommandType = (typeof PRINT_COMMAND_TYPES)[number];
export const PRINT_ALIGNMENTS = ['left', 'center', 'right'] as const;
export type PrintAlignment = (typeof PRINT_ALIGNMENTS)[number];

/** Input bounds of a print job (docs/contract.md records them). */
export const PRINT_LIMITS = {
  minCommands: 1,
  maxCommands: 200,
  maxTextLength: 1024,
  maxCodeLength: 512,
  maxFeedLines: 20,
  maxExternalReferenceLength: 128,
} as const;

export type PrintCommand =
  | { type: 'text'; value: string; align?: PrintAlignment; bold?: boolean }
  | { type: 'qr' | 'barcode'; value: string }
  | { type: 'feed'; lines: number }
  | { type: 'cut' };

/** What became of a job's callback: the service's one attempt (no retry, contract §6). */
export interface PrintCallbackRecord {
  attemptedAt: string;
  /** The receiver's HTTP status; null when none came (timeout, refused connection). */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /**
   * What each `listen` connection of the merchant answered to its copy (contract §6.1), in the
   * order they answered; absent when none was open.
   */
  listeners?: PrintCallbackListenerAnswer[];
}

/** One `listen` connection's local answer to its copy of a print callback. */
export interface PrintCallbackListenerAnswer {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

/** The job record that POST and GET answer (contract §12, plus `printedText` and `callback`). */
export interface PrintJobRecord {
  printJobId: string;
  status: PrintJobStatus;
  externalReference: string;
  terminalSerial: string;
  createdAt: string;
  updatedAt: string;
  errorCode?: string;
  errorMessage?: string;
  /** The receipt as printed, 32 columns a line; present once COMPLETED. */
  printedText?: string;
  /** The outcome of the print webhook's single attempt; present once it ended. */
  callback?: PrintCallbackRecord;
}

/** The print webhook payload, exactly as the specification gives it. */
export interface PrintWebhookPayload {
  printJobId: string;
  status: 'COMPLETED' | 'FAILED';
  externalReference: string;
  errorCode?: string;
  errorMessage?: string;
}
