import type { TransactionEvent } from '@tps/contracts';
import type { ErrorBody } from '@tps/domain';
import type { PendingDelivery, PostResult, WebhookPost } from '@tps/delivery';
import type { PrintJobReport, UplinkNotice } from '@tps/link';
import type { MessagePort } from '@tps/messaging';

/** What the API's write paths tell, each once its write has committed. */
export interface ApiTopics {
  /** An event of a transaction, newly stored, with the trace of the terminal's run of it. */
  'transaction.event': { serial: string; event: TransactionEvent; traceparent?: string };
  /** A webhook attempt, recorded, and what follows it. */
  'delivery.attempt': { deliveryId: string; outcome: 'delivered' | 'retrying' | 'failed' };
  /**
   * A delivery, newly in the outbox, for the dispatcher to send at once. `firstTarget` (which holds
   * the signing secret) is a hint for the dispatcher of the same process: a port that crosses
   * processes drops it, and the receiver reads the target from the outbox.
   */
  'delivery.staged': PendingDelivery;
  /** A print job report of a terminal, applied to its job. */
  'print.report': { serial: string; report: PrintJobReport };
  /**
   * A merchant's signed transaction search, online or local, once authenticated: the conformance
   * run (contract §17) scores a receiver by the searches it makes. Nothing is stored for it.
   */
  'search.call': { merchantId: string; clientTransactionId?: string };
  /** A sandbox account, deleted: a conformance run of its, on whichever replica, ends (contract §17). */
  'account.removed': { merchantId: string };
  /**
   * A `listen` connection of the merchant is open in some process (contract §6.1): said when it
   * opens and again while it stays open, so a process started later learns of it; `open: false`
   * when it closes.
   */
  'listen.presence': { merchantId: string; listenerId: string; open: boolean };
  /**
   * A webhook attempt for the merchant's listeners. The post carries the signed headers, never the
   * signing secret.
   */
  'listen.attempt': { attemptId: string; merchantId: string; post: WebhookPost };
  /** What one listener's local receiver answered to its copy of an attempt (contract §6.1). */
  'listen.answer': { attemptId: string; listenerId: string; result: PostResult };
  /**
   * A request for a link `replica` holds, stored for it to send (contract, scale-out). Sent by the
   * routing store's statement that stores it, as `route.answered` is by the one that stores the reply.
   */
  'route.handed': { replica: string; id: string };
  /** The reply of a routed request, stored for the replica that waits for it; with it when small. */
  'route.answered': { id: string; reply?: { ok: unknown } | { error: ErrorBody } };
  /** A notice for a terminal's uplink, for the replica that holds it (a routed operation's events, stored). */
  'route.notice': { serial: string; notice: UplinkNotice };
}

export type ApiMessages = MessagePort<ApiTopics>;

/**
 * The topics told to the other replicas on one database. `delivery.staged` stays in its process:
 * it carries a signing secret, and the replica that staged a delivery sends it.
 */
export const CROSSING_TOPICS: ReadonlyArray<keyof ApiTopics> = [
  'transaction.event',
  'delivery.attempt',
  'print.report',
  'search.call',
  'account.removed',
  'route.handed',
  'route.answered',
  'route.notice',
  'listen.presence',
  'listen.attempt',
  'listen.answer',
];

/**
 * Crossing topics that only a console watches (its live stream, from every replica): sent to the
 * other replicas only while one of them has a console open, so a charge costs no NOTIFY otherwise.
 */
export const ON_DEMAND_TOPICS: ReadonlyArray<keyof ApiTopics> = [
  'transaction.event',
  'delivery.attempt',
  'print.report',
];

/** The injection token of the API's message port. */
export const API_MESSAGES = Symbol('ApiMessages');
