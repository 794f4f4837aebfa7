import { mayStart, nextStep, type NextStep, type RetrySchedule } from './retry-policy';
import { AttemptAbandoned, type PostResult, type WebhookPost } from './webhook-post';
import { signWebhook } from './webhook-signature';

/** A delivery still to make, as the dispatcher tracks it. */
export interface PendingDelivery {
  id: string;
  /** Deliveries sharing a key (a transaction) go out one at a time, in `position` order. */
  orderKey: string;
  position: number;
  /** Attempts recorded so far. */
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number;
}

/** What one delivery sends. */
export interface DeliveryTarget {
  url: string;
  body: string;
  eventId: string;
  /** The merchant's `whsec_` secret when it has one: the attempt is then signed. */
  signingSecret: string | null;
}

export interface RecordedAttempt extends PostResult {
  n: number;
  /** When the attempt started (epoch ms). */
  at: number;
  firstAttemptAt: number;
  step: NextStep;
}

/** The outbox, in the database: the dispatcher's only memory that survives a crash. */
export interface DeliveryStore {
  /** Every delivery still pending. */
  pending(): Promise<PendingDelivery[]>;
  target(id: string): Promise<DeliveryTarget>;
  /** The attempt row and the delivery's new state, written together. */
  record(id: string, attempt: RecordedAttempt): Promise<void>;
  /** A delivery found past its window when due fails with no further attempt. */
  expire(id: string): Promise<void>;
}

export interface Timers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export interface DispatcherDeps {
  store: DeliveryStore;
  send: (post: WebhookPost, shutdown: AbortSignal) => Promise<PostResult>;
  schedule: RetrySchedule;
  now: () => number;
  random: () => number;
  timers: Timers;
  /** Attempts in flight at once, across all transactions. */
  maxConcurrent: number;
  onError: (message: string) => void;
}

/** After a store failure the delivery is tried again this much later (it stays pending). */
const STORE_FAILURE_BACKOFF_MS = 1000;

/**
 * Sends each pending delivery when it is due, event-driven: a new delivery leaves at once, and a
 * single timer wakes the dispatcher for the earliest retry, however many wait. Only the head of
 * each transaction's queue is ever eligible, so a later event waits for an earlier one.
 */
export class Dispatcher {
  private readonly queues = new Map<string, PendingDelivery[]>();
  private readonly known = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private timer: { handle: unknown; at: number } | undefined;
  private running = false;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Resumes every pending delivery of the store at its time. */
  async start(): Promise<void> {
    for (const delivery of await this.deps.store.pending()) this.enqueue(delivery);
    this.running = true;
    this.pump();
  }

  /** Takes a delivery the store has just saved. */
  add(delivery: PendingDelivery): void {
    this.enqueue(delivery);
    this.pump();
  }

  /**
   * Starts no attempt any more and cuts those in flight: an attempt whose answer came is recorded
   * in full, one cut before its answer is not recorded at all and stays pending in the store.
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer.handle);
    this.timer = undefined;
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** How many deliveries wait (for tests and health). */
  get pendingCount(): number {
    return this.known.size;
  }

  private enqueue(delivery: PendingDelivery): void {
    if (this.known.has(delivery.id)) return;
    this.known.add(delivery.id);
    const queue = this.queues.get(delivery.orderKey) ?? [];
    const at = queue.findIndex((other) => other.position > delivery.position);
    queue.splice(at === -1 ? queue.length : at, 0, { ...delivery });
    this.queues.set(delivery.orderKey, queue);
  }

  private finish(delivery: PendingDelivery): void {
    this.known.delete(delivery.id);
    const queue = this.queues.get(delivery.orderKey);
    if (queue === undefined) return;
    const rest = queue.filter((other) => other.id !== delivery.id);
    if (rest.length === 0) this.queues.delete(delivery.orderKey);
    else this.queues.set(delivery.orderKey, rest);
  }

  /** Launches every due head there is room for, then arms the one timer for the next. */
  private pump(): void {
    if (!this.running) return;
    const now = this.deps.now();
    let earliest = Infinity;
    for (const queue of this.queues.values()) {
      const head = queue[0];
      if (this.inFlight.has(head.id)) continue;
      if (head.nextAttemptAt > now) earliest = Math.min(earliest, head.nextAttemptAt);
      else if (this.inFlight.size < this.deps.maxConcurrent) this.launch(head);
      // A due head with no room left goes when an attempt in flight ends and pumps again.
    }
    this.arm(earliest, now);
  }

  private arm(at: number, now: number): void {
    if (this.timer?.at === at) return;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer.handle);
    this.timer = undefined;
    if (at === Infinity) return;
    const handle = this.deps.timers.set(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(0, at - now),
    );
    this.timer = { handle, at };
  }

  private launch(delivery: PendingDelivery): void {
    const run = this.attempt(delivery)
      .catch((error: unknown) => {
        this.deps.onError(`delivery ${delivery.id}: ${String(error)}; tried again later`);
        delivery.nextAttemptAt = this.deps.now() + STORE_FAILURE_BACKOFF_MS;
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.pump();
      });
    this.inFlight.set(delivery.id, run);
  }

  private async attempt(delivery: PendingDelivery): Promise<void> {
    const { store, schedule } = this.deps;
    const at = this.deps.now();
    if (!mayStart(schedule, delivery.firstAttemptAt, at)) {
      await store.expire(delivery.id);
      this.finish(delivery);
      return;
    }
    const target = await store.target(delivery.id);
    const headers =
      target.signingSecret === null
        ? {}
        : { ...signWebhook(target.signingSecret, target.eventId, Math.floor(at / 1000), target.body) };
    let result: PostResult;
    try {
      result = await this.deps.send({ url: target.url, body: target.body, headers }, this.shutdown.signal);
    } catch (error) {
      if (error instanceof AttemptAbandoned) return;
      throw error;
    }
    const n = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ?? at;
    const endedAt = this.deps.now();
    const step = nextStep(
      schedule,
      { n, firstAttemptAt, endedAt, outcome: result.outcome },
      this.deps.random,
    );
    await store.record(delivery.id, { ...result, n, at, firstAttemptAt, step });
    delivery.attempts = n;
    delivery.firstAttemptAt = firstAttemptAt;
    if (step.state === 'pending') delivery.nextAttemptAt = step.nextAttemptAt;
    else this.finish(delivery);
  }
}
