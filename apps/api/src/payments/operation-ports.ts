import type {
  AmountCentavos,
  ContractError,
  FollowUpReads,
  FollowUpType,
  OperationMode,
  TransactionRecord,
} from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';
import type { LinkEvent, OriginalCard, TerminalRequest, TransactionOutcome } from '@tps/link';
import type { RequestForm } from '../terminals/request-form';

/** The merchant a request is for, by what the use case and its ports read. */
export interface OperationMerchant {
  merchantId: string;
  /** The terminal of its Local-form requests. */
  boundTerminalSerial: string | null;
  /** Its sandbox clock's offset (contract §8). */
  clockOffsetSeconds: number;
}

/** A terminal as the use case names it; the gateway hands it out and takes it back. */
export interface OperationTerminal {
  serialNumber: string;
  merchantId: string;
}

/** A transaction as the use case records and reads it: its money record and its request's. */
export interface StoredTransaction extends TransactionRecord<TransactionOutcome, TransactionEvent> {
  /** Method, path and body of the first request: a different one under the same id is TRX-001. */
  fingerprint: string;
  mode: OperationMode;
  form: RequestForm;
  metadata: Record<string, string>;
  eventsWebhookUrl: string;
  /** Merchant-clock creation time. */
  createdAtMs: number;
  deliveryCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A transaction as a request names it. */
export interface TransactionName {
  merchantId: string;
  clientTransactionId: string;
}

/** What deciding a follow-up reads, inside the write that records it. */
export type FollowUpReader = FollowUpReads<StoredTransaction>;

/** Where the use case keeps its records; the repository and the event ingest in the app. */
export interface OperationStore<Terminal extends OperationTerminal = OperationTerminal> {
  findByClientId(merchantId: string, clientTransactionId: string): Promise<StoredTransaction | null>;
  /** Inserts a new transaction's record; null when its client_transaction_id is taken. */
  insertNew(transaction: StoredTransaction): Promise<StoredTransaction | null>;
  /**
   * Inserts the follow-up `decide` builds from what it reads, in one write; null when the id is
   * taken (the unique key says so, or `decide` found it taken).
   */
  insertDecided(
    decide: (reader: FollowUpReader) => Promise<StoredTransaction | null>,
  ): Promise<StoredTransaction | null>;
  /** Forgets a request the terminal never took. */
  remove(id: string): Promise<void>;
  /** Stores a run of one transaction's events (as the uplink does); throws unless all are stored. */
  storeEvents(terminal: Terminal, events: LinkEvent[]): Promise<void>;
}

/** The terminals: which one a request is for, and the link to it. */
export interface TerminalGateway<Terminal extends OperationTerminal> {
  resolve(merchant: OperationMerchant, serial: string | undefined): Promise<Terminal>;
  /** TER-001 when it was never sent; TER-002 when sent and not answered (lost or timed out). */
  send<T>(terminal: Terminal, form: RequestForm, request: TerminalRequest, timeoutMs: number): Promise<T>;
  /** Tells the terminal its reply's events are stored (they need not come up its uplink too). */
  stored(terminal: Terminal, events: LinkEvent[]): void;
}

/** The merchant's sandbox clock. */
export interface MerchantTime {
  now(merchant: OperationMerchant): Date;
  offsetMs(merchant: OperationMerchant): number;
}

/** Real time, for waiting on a repeat's answer. */
export interface Timer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** A follow-up request, as its planning reads it. */
export interface FollowUpAsk {
  merchant: OperationMerchant;
  type: FollowUpType;
  transactionReference: string;
  amount?: AmountCentavos;
  tip?: number;
}

/** What a follow-up hands its terminal, once the rules of contract §9 allowed it. */
export interface FollowUpPlan {
  /** The operation's amount: the request's, or the one of the transaction acted on. */
  amount: AmountCentavos;
  original: OriginalCard | undefined;
  /** The reference of the charge, authorization or capture it acts on. */
  targetReference: string;
}

export interface FollowUpPlanning {
  plan(ask: FollowUpAsk, reader: FollowUpReader): Promise<FollowUpPlan>;
}

/** The account's quota of transactions per day and its cap of pending deliveries (contract, "Hosted mode"). */
export interface TransactionQuota {
  /** Counts one more transaction of the merchant; the refusal to answer when it is over quota. */
  admit(merchant: OperationMerchant): Promise<ContractError | undefined>;
}

/** Everything the operation use case needs from the outside, so it runs without the framework. */
export interface OperationPorts<Terminal extends OperationTerminal> {
  store: OperationStore<Terminal>;
  quota: TransactionQuota;
  terminals: TerminalGateway<Terminal>;
  clock: MerchantTime;
  timer: Timer;
  planner: FollowUpPlanning;
  /** How long a terminal has to answer an operation (TERMINAL_REPLY_TIMEOUT_MS). */
  replyTimeoutMs: number;
}

export const REAL_TIMER: Timer = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
