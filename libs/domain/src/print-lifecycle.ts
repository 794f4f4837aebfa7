/**
 * The print job lifecycle of the specification (PENDING, IN_PROGRESS, COMPLETED, FAILED), and
 * the only place where a print job's status changes, on the terminal and in the service.
 */
export const PRINT_JOB_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;

export type PrintJobStatus = (typeof PRINT_JOB_STATUSES)[number];

/** The printer takes a job, then finishes it one way or the other. */
export const PRINT_JOB_TRANSITIONS: ReadonlyMap<PrintJobStatus, readonly PrintJobStatus[]> = new Map<
  PrintJobStatus,
  readonly PrintJobStatus[]
>([
  ['PENDING', ['IN_PROGRESS']],
  ['IN_PROGRESS', ['COMPLETED', 'FAILED']],
  ['COMPLETED', []],
  ['FAILED', []],
]);

/** Printer conditions (contract §12): the errorCode of a FAILED job. */
export const PRINTER_ERROR_CODES = ['COVER_OPEN', 'PAPER_OUT'] as const;
export type PrinterErrorCode = (typeof PRINTER_ERROR_CODES)[number];

export class PrintTransitionRefusedError extends Error {
  constructor(
    readonly from: PrintJobStatus,
    readonly to: string,
  ) {
    super(`print job transition ${from} -> ${to} is not in the lifecycle`);
    this.name = 'PrintTransitionRefusedError';
  }
}

export function isPrintJobStatus(value: unknown): value is PrintJobStatus {
  return typeof value === 'string' && (PRINT_JOB_STATUSES as readonly string[]).includes(value);
}

export function isFinalPrintJobStatus(status: PrintJobStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/** True when a job moving from `from` to `to` has just finished: its webhook is now due, once. */
export function finishesPrintJob(from: PrintJobStatus, to: PrintJobStatus): boolean {
  return !isFinalPrintJobStatus(from) && isFinalPrintJobStatus(to);
}

/** Applies one transition; returns the new status or throws `PrintTransitionRefusedError`. */
export function transitionPrintJob(from: PrintJobStatus, to: string): PrintJobStatus {
  if (!isPrintJobStatus(to) || !(PRINT_JOB_TRANSITIONS.get(from)?.includes(to) ?? false)) {
    throw new PrintTransitionRefusedError(from, to);
  }
  return to;
}

/**
 * The statuses a job passes to get from `from` to `to`, each step checked by
 * `transitionPrintJob`: a report that skipped a step it could not send (the link was down) is
 * still applied edge by edge. Empty when `to` is where the job already is.
 */
export function printJobPath(from: PrintJobStatus, to: string): PrintJobStatus[] {
  if (from === to) return [];
  const steps: PrintJobStatus[] = [];
  let current = from;
  while (current !== to) {
    const next: PrintJobStatus | undefined =
      current === 'PENDING' ? 'IN_PROGRESS' : current === 'IN_PROGRESS' ? (to as PrintJobStatus) : undefined;
    if (next === undefined) throw new PrintTransitionRefusedError(current, to);
    current = transitionPrintJob(current, next);
    steps.push(current);
  }
  return steps;
}
