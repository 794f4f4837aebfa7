import type { TransactionEvent } from '@tps/contracts';

/** The clock of a run's waits: tests drive it by hand (contract §17 bounds a run in time). */
export interface RunClock {
  nowMs(): number;
  /** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** What the receiver answered to one request of the run. */
export interface ReceiverAnswer {
  /** The HTTP status; null when none came (timeout, refused connection, the run's end). */
  status: number | null;
  /** Why no status came; null when one did. */
  error: string | null;
  latencyMs: number;
}

/** Sends one request to the URL under test; transport failures come back as answers. */
export type PostToReceiver = (
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
) => Promise<ReceiverAnswer>;

/** `approved`: CHIP read, then approved; `card-retry`: scenario 93, two card reads (contract §10). */
export type TransactionKind = 'approved' | 'card-retry';

/** Makes real transactions of the account and answers each one's stored events, in order. */
export type MakeTransactions = (kinds: TransactionKind[]) => Promise<TransactionEvent[][]>;

/** Listens to the account's transaction searches by client_transaction_id; returns the way to stop. */
export type WatchSearches = (listener: (clientTransactionId: string | undefined) => void) => () => void;

/** What the receiver's report said: how many times it processed each id asked about. */
export type ProcessedReport = { counts: Record<string, number> } | { error: string };

/** Reads the receiver's report at the run's `report_url` (contract §17) for these ids. */
export type ReadReport = (ids: string[], signal: AbortSignal) => Promise<ProcessedReport>;

export interface RunPorts {
  clock: RunClock;
  /** Aborted when the run must end before its time (its account deleted): it is cut then. */
  stop?: AbortSignal;
  post: PostToReceiver;
  /** Absent when the run was given no `report_url`: the cases that need it are skipped. */
  report?: ReadReport;
  transactions: MakeTransactions;
  searches: WatchSearches;
}

/** The bounds of a run; the defaults are contract §17's, tests shorten the windows. */
export interface RunLimits {
  /** The whole run, from its start: 60 s. */
  runMs: number;
  /** How long a receiver has to search after a gap or an out-of-order event: 30 s. */
  searchWindowMs: number;
  /** How long one request waits for its answer. */
  answerTimeoutMs: number;
  /** fast-ack: each answer within 2 s. */
  fastAckMs: number;
  /** burst: its events spread over 1 s. */
  burstSpreadMs: number;
  /** How long the receiver's report may take to show an id processed (it processes after answering). */
  reportWaitMs: number;
}

export const REAL_RUN_CLOCK: RunClock = {
  nowMs: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    }),
};
