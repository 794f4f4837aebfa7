import { DestinationHealth, healthKey } from './destination-health';
import { MinHeap } from './min-heap';
import { mayStart, nextStep, type NextStep, type RetrySchedule } from './retry-policy';
import {
  AttemptAbandoned,
  recordLaterListeners,
  type ListenerAnswer,
  type PostResult,
  type WebhookPost,
} from './webhook-post';
import { TenantLines } from './tenant-lines';
import { signWebhook } from './webhook-signature';

/** A delivery still to make, as the dispatcher tracks it. */
export interface PendingDelivery {
  id: string;
  /** Deliveries sharing a key (a transaction) go out one at a time, in `position` order. */
  orderKey: string;
  position: number;
  /** Where it goes (see destinationOf): the unit that holds a bounded share of the attempts in flight. */
  destination: string;
  /** The merchant it is for: attempts in flight are shared out per merchant first (TenantLines). */
  tenant: string;
  /** Attempts recorded so far. */
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number;
  /** The epoch of the lease this process holds it under (LeaseStore): its attempts are recorded under it. */
  leaseEpoch: number;
  /**
   * What the first attempt sends, when whoever staged the delivery knew it already (the write
   * that stored its event); dropped once used. Every other attempt reads it from the store, so a
   * changed signing secret applies from the next attempt on.
   */
  firstTarget?: DeliveryTarget;
  /**
   * W3C trace context of what led to it (the terminal's run of the operation), while this process
   * holds it: each attempt continues that trace. One read back from the store starts its own.
   */
  traceparent?: string;
}

/** What one delivery sends. */
export interface DeliveryTarget {
  url: string;
  body: string;
  eventId: string;
  /**
   * The merchant's `whsec_` secrets in force, the newest first (two while a rotated one overlaps);
   * none: the attempt goes unsigned.
   */
  signingSecrets: readonly string[];
  /** The merchant the delivery is for: its `listen` connection, when open, takes the attempt. */
  merchantId: string;
  /**
   * Why no attempt can be signed now (the merchant's secret cannot be opened): nothing is sent,
   * and the attempt is recorded as `secret_unavailable`, retried on the schedule like any other.
   */
  unsignable?: string;
}

export interface RecordedAttempt extends PostResult {
  n: number;
  /** When the attempt started (epoch ms). */
  at: number;
  firstAttemptAt: number;
  step: NextStep;
}

/**
 * The outbox, in the database: the dispatcher's only memory that survives a crash. Several
 * processes may share it: each pending delivery is leased to one of them (see DeliveryLeases),
 * and a process writes only what it holds.
 */
/** What became of an attempt's record (DeliveryStore.record). */
export type RecordOutcome = 'recorded' | 'taken' | 'gone';

export interface DeliveryStore {
  /**
   * The pending deliveries this process takes at start: those a predecessor of the same replica
   * left (it is gone, so they need not wait for their leases to end), each leased to this process.
   */
  adopt(): Promise<PendingDelivery[]>;
  /** null when the delivery is gone (its sandbox account was reset or removed). */
  target(id: string): Promise<DeliveryTarget | null>;
  /**
   * The attempt row and the delivery's new state, written together, only while this process
   * still holds the delivery's lease. Nothing is written when another process has taken it
   * ('taken') or the delivery is no longer stored ('gone': its account was reset or removed, or
   * retention purged it while the attempt was in flight).
   */
  record(id: string, attempt: RecordedAttempt, leaseEpoch: number): Promise<RecordOutcome>;
  /** Every listener answer of a recorded attempt, once the last of them came (PostResult.laterListeners). */
  recordListeners(id: string, n: number, listeners: readonly ListenerAnswer[]): Promise<void>;
  /** A delivery found past its window when due fails with no further attempt (if still held). */
  expire(id: string, leaseEpoch: number): Promise<void>;
  /**
   * Whether an earlier delivery of the same transaction (same `orderKey`, lower `position`) is
   * still pending in the store: one that another process, sharing the database, is delivering.
   */
  earlierPending(delivery: PendingDelivery): Promise<boolean>;
}

/**
 * A merchant's destination's share counted across every process sharing the outbox (contract §13:
 * one slow receiver holds a bounded share, cluster-wide; a merchant's, not its neighbours'): an
 * attempt holds one of the slots of its merchant's destination (`healthKey`).
 */
export interface DestinationSlots {
  /** One of the free slots of `destination` (a merchant's), now held by this process; null when none is free. */
  take(destination: string): Promise<number | null>;
  give(destination: string, slot: number): Promise<void>;
}

export interface Timers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export interface DispatcherDeps {
  store: DeliveryStore;
  send: (post: WebhookPost, shutdown: AbortSignal, merchantId: string) => Promise<PostResult>;
  schedule: RetrySchedule;
  now: () => number;
  random: () => number;
  timers: Timers;
  /** Attempts in flight at once, across all transactions. */
  maxConcurrent: number;
  /**
   * Attempts in flight at once to one destination: a receiver that hangs or fails holds at most
   * this many of the `maxConcurrent`, and the others stay free for every other destination.
   */
  maxPerDestination: number;
  onError: (message: string) => void;
  /** An attempt recorded without being sent, and why (DeliveryTarget.unsignable). */
  onUnsent?: (deliveryId: string, reason: string) => void;
  /**
   * Attempts in a row to a merchant's destination that time out before it is held to one attempt
   * in flight (DestinationHealth): CUT_AFTER_TIMEOUTS unless set; Infinity never cuts.
   */
  cutAfterTimeouts?: number;
  /** An attempt timed out; `cut`: the merchant's destination is held to one attempt in flight from now on. */
  onTimedOut?: (delivery: PendingDelivery, cut: boolean) => void;
  /**
   * Whether this process's leases are known to hold now; while not (they could not be renewed),
   * no attempt starts, so none is made while another process may have taken its delivery.
   */
  leasesHeld?: () => boolean;
  /**
   * A transaction's last delivery this process holds has settled (delivered or failed, once its
   * record has committed; or lost).
   */
  onSettled?: (orderKey: string) => void;
  /**
   * The destinations' shares across every process on the outbox; absent when this process is
   * the only one, so that its own count of attempts in flight is the whole share.
   */
  slots?: DestinationSlots;
  /**
   * How long a stop lets the attempts already on the wire be answered and recorded before it cuts
   * them (0 unless set): an answer a receiver gave is then recorded, not made again elsewhere.
   */
  stopGraceMs?: number;
}

/** After a store failure the delivery is tried again this much later (it stays pending). */
const STORE_FAILURE_BACKOFF_MS = 1000;

/** How often a head whose earlier delivery another process still holds looks again. */
const ORDER_RECHECK_MS = 500;

/** While every slot of its destination is taken elsewhere, a due delivery looks again this often. */
const SLOT_RECHECK_MS = 250;

/**
 * A slot no attempt uses any more is kept this long before it is given back: the next event of a
 * busy destination takes it with no statement, and an idle one frees it for other processes soon.
 */
const SLOT_LINGER_MS = 200;

/** Transactions whose last finished position is remembered, so their next head needs no read. */
const REMEMBERED_TRANSACTIONS = 4096;

/** A head waiting in the heap, with the time it was due when it went in. */
interface Waiting {
  at: number;
  delivery: PendingDelivery;
}

/**
 * The destination of a webhook URL: scheme, host and port, as the URL's origin spells them (so
 * `http://h` and `http://h:80` are one). A URL that does not parse is its own destination.
 */
export function destinationOf(url: string, merchantId: string): string {
  // An event with no URL goes to its merchant's `listen` connections only (contract §6.1): those
  // are its destination, so one merchant's listeners hold no share of another's.
  if (url === '') return `listen:${merchantId}`;
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Sends each pending delivery when it is due, event-driven: a new delivery leaves at once, and a
 * single timer wakes the dispatcher for the earliest retry, however many wait. Only the head of
 * each transaction's queue is ever eligible, so a later event waits for an earlier one.
 *
 * Fairness: a head that falls due goes to its merchant's line to its destination (TenantLines).
 * A free slot goes to the merchant with the fewest attempts in flight, and within it to the
 * destination with the fewest; a destination of a merchant never has more than
 * `maxPerDestination` attempts in flight, so what is due beyond that waits without taking a slot
 * another destination or merchant could use, and a merchant with that many in flight takes none of
 * the last that many free slots (TenantLines' reserve). Waiting in a line is not an attempt.
 */
export class Dispatcher {
  private readonly queues = new Map<string, PendingDelivery[]>();
  private readonly known = new Set<string>();
  /** Queue heads not in flight, earliest due first. An entry gone stale is skipped when it comes out. */
  private readonly waiting = new MinHeap<Waiting>((entry) => entry.at);
  /** Heads already due, per merchant and destination, until a slot is theirs. */
  private readonly lines: TenantLines<Waiting>;
  /** Destinations that keep timing out, per merchant: held to one attempt in flight. */
  private readonly health: DestinationHealth;
  /** Every attempt under way, from its start until its record has committed (or failed). */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private timer: { handle: unknown; at: number } | undefined;
  private running = false;
  /** Heads known to follow every earlier delivery of their transaction: they need no store read. */
  private readonly inOrder = new WeakSet<PendingDelivery>();
  /** The position this dispatcher finished last, per transaction (the most recent ones). */
  private readonly lastFinished = new Map<string, number>();
  /** Slots held and unused, per destination, the last freed at the end. */
  private readonly idleSlots = new Map<string, Array<{ slot: number; since: number }>>();
  /** Destinations found with every slot taken, until when they are not asked again. */
  private readonly fullUntil = new Map<string, number>();
  private slotTimer: unknown;

  constructor(private readonly deps: DispatcherDeps) {
    this.health = new DestinationHealth(deps.maxPerDestination, deps.cutAfterTimeouts);
    // In flight for the shares: from its start until its answer (freeSlot), not its record.
    this.lines = new TenantLines<Waiting>({
      slots: deps.maxConcurrent,
      share: deps.maxPerDestination,
      shareOf: (tenant, destination) => this.health.shareOf(healthKey(tenant, destination)),
      dueAt: (entry) => entry.at,
      isCurrent: (entry) => this.isCurrent(entry),
    });
  }

  /**
   * Resumes at its time every pending delivery the store hands this process at start. Another
   * process may hold an earlier delivery of the same transaction, so each head asks once.
   */
  async start(): Promise<void> {
    for (const delivery of await this.deps.store.adopt()) this.enqueue(delivery);
    for (const queue of this.queues.values()) this.wait(queue[0]);
    this.running = true;
    this.pump();
  }

  /** The deliveries this dispatcher holds now. */
  heldIds(): string[] {
    return [...this.known];
  }

  /**
   * How many more deliveries could start now: the slots less the heads held here that are in
   * flight or due (waiting in their lines); a delivery behind its transaction's head, or due
   * later, takes no slot now.
   */
  room(): number {
    const now = this.deps.now();
    let due = 0;
    for (const [head] of this.queues.values()) {
      if (this.inFlight.has(head.id) || head.nextAttemptAt <= now) due += 1;
    }
    return this.deps.maxConcurrent - due;
  }

  /**
   * Forgets deliveries whose leases another process has taken: no attempt of them starts here any
   * more. One in flight is left to its attempt, whose record finds the lease gone.
   */
  drop(ids: Iterable<string>): void {
    for (const id of ids) {
      if (this.inFlight.has(id)) continue;
      const delivery = this.delivery(id);
      if (delivery !== undefined) this.lose(delivery);
    }
    this.pump();
  }

  /** Takes a delivery the store has just saved. */
  add(delivery: PendingDelivery): void {
    this.enqueue(delivery);
    this.pump();
  }

  /**
   * Starts no attempt any more, lets those in flight end for up to `stopGraceMs`, then cuts the
   * rest: an attempt whose answer came is recorded in full, one cut before its answer is not
   * recorded at all and stays pending in the store.
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer.handle);
    this.timer = undefined;
    // Slots still held go back with the leases (DeliveryLeases.release).
    if (this.slotTimer !== undefined) this.deps.timers.clear(this.slotTimer);
    this.slotTimer = undefined;
    await this.inFlightEnded(this.deps.stopGraceMs ?? 0);
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Resolves once every attempt in flight has ended, or `withinMs` have passed. */
  private async inFlightEnded(withinMs: number): Promise<void> {
    if (withinMs <= 0 || this.inFlight.size === 0) return;
    let handle: unknown;
    const graceOver = new Promise<void>((resolve) => (handle = this.deps.timers.set(resolve, withinMs)));
    await Promise.race([Promise.allSettled([...this.inFlight.values()]), graceOver]);
    this.deps.timers.clear(handle);
  }

  /** How many deliveries are pending (for the logs). */
  get pendingCount(): number {
    return this.known.size;
  }

  private enqueue(delivery: PendingDelivery): void {
    if (this.known.has(delivery.id)) return;
    const added = { ...delivery };
    // Before start() the heads are put in the heap all at once.
    if (this.insert(added) && this.running) this.wait(added);
  }

  /** Puts a delivery in its transaction's queue, by position; true when it is the head. */
  private insert(delivery: PendingDelivery): boolean {
    this.known.add(delivery.id);
    const queue = this.queues.get(delivery.orderKey) ?? [];
    const at = queue.findIndex((other) => other.position > delivery.position);
    queue.splice(at === -1 ? queue.length : at, 0, delivery);
    this.queues.set(delivery.orderKey, queue);
    return queue[0] === delivery;
  }

  private wait(delivery: PendingDelivery): void {
    this.waiting.push({ at: delivery.nextAttemptAt, delivery });
  }

  /** Whether a heap entry still stands for a head that is due at that time and not in flight. */
  private isCurrent({ at, delivery }: Waiting): boolean {
    return (
      this.known.has(delivery.id) &&
      this.queues.get(delivery.orderKey)?.[0] === delivery &&
      delivery.nextAttemptAt === at &&
      !this.inFlight.has(delivery.id)
    );
  }

  private delivery(id: string): PendingDelivery | undefined {
    if (!this.known.has(id)) return undefined;
    for (const queue of this.queues.values()) {
      const found = queue.find((delivery) => delivery.id === id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** `announce`: tell now when its transaction has nothing left here (else its caller does, later). */
  private finish(delivery: PendingDelivery, announce = true): void {
    this.rememberFinished(delivery);
    const next = this.remove(delivery, announce);
    if (next !== undefined) this.inOrder.add(next);
  }

  /**
   * A delivery another process now holds: it is not settled, so the next one of its transaction
   * asks the store whether it is (the other process may still be sending it).
   */
  private lose(delivery: PendingDelivery): void {
    this.remove(delivery);
  }

  /** Takes a delivery out of its queue; the queue's new head, if any, waits for its time. */
  private remove(delivery: PendingDelivery, announce = true): PendingDelivery | undefined {
    this.known.delete(delivery.id);
    const queue = this.queues.get(delivery.orderKey);
    if (queue === undefined) return undefined;
    const rest = queue.filter((other) => other.id !== delivery.id);
    if (rest.length === 0) {
      this.queues.delete(delivery.orderKey);
      if (announce) this.deps.onSettled?.(delivery.orderKey);
      return undefined;
    }
    this.queues.set(delivery.orderKey, rest);
    this.wait(rest[0]);
    return rest[0];
  }

  private rememberFinished({ orderKey, position }: PendingDelivery): void {
    this.lastFinished.delete(orderKey);
    this.lastFinished.set(orderKey, position);
    if (this.lastFinished.size > REMEMBERED_TRANSACTIONS) {
      const oldest = this.lastFinished.keys().next().value as string;
      this.lastFinished.delete(oldest);
    }
  }

  /**
   * Whether the head may go without asking the store: it is its transaction's first delivery, or
   * this dispatcher settled the one before it. Otherwise another process sharing the database may
   * still hold an earlier one (contract §13: order holds across processes).
   */
  private followsKnownOrder(delivery: PendingDelivery): boolean {
    return (
      delivery.position === 1 ||
      this.inOrder.has(delivery) ||
      this.lastFinished.get(delivery.orderKey) === delivery.position - 1
    );
  }

  /**
   * Moves every head now due to its destination's line, launches what there is room for, then
   * arms the one timer for the next head to fall due.
   */
  private pump(): void {
    if (!this.running) return;
    const now = this.deps.now();
    for (let next = this.waiting.peek(); next !== undefined && next.at <= now; next = this.waiting.peek()) {
      this.waiting.pop();
      if (this.isCurrent(next)) this.lines.add(next.delivery.tenant, next.delivery.destination, next);
    }
    // A due head waits in its line for room: the attempt that ends next pumps again, no timer needed.
    for (let next = this.lines.take(); next !== undefined; next = this.lines.take()) {
      this.launch(next.item.delivery);
    }
    let next = this.waiting.peek();
    while (next !== undefined && !this.isCurrent(next)) {
      this.waiting.pop();
      next = this.waiting.peek();
    }
    this.arm(next === undefined ? Infinity : next.at, now);
  }

  private arm(at: number, now: number): void {
    if (this.timer?.at === at) return;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer.handle);
    this.timer = undefined;
    if (at === Infinity) return;
    const handle = this.deps.timers.set(() => {
      this.timer = undefined;
      this.pump();
    }, at - now);
    this.timer = { handle, at };
  }

  private launch(delivery: PendingDelivery): void {
    const { destination, tenant } = delivery;
    const slotKey = healthKey(tenant, destination);
    let answered = false;
    const held: { slot: number | null } = { slot: null };
    // The slot is freed by the answer, not by the record: the record waits its turn in the write
    // queue, and a slot held meanwhile would throttle a destination by the speed of the disk.
    const freeSlot = (): void => {
      if (answered) return;
      answered = true;
      this.lines.ended(tenant, destination);
      if (held.slot !== null) this.idle(slotKey, held.slot);
      held.slot = null;
    };
    const run = this.attempt(delivery, freeSlot, held)
      .catch((error: unknown) => {
        this.deps.onError(`delivery ${delivery.id}: ${String(error)}; tried again later`);
        delivery.nextAttemptAt = this.deps.now() + STORE_FAILURE_BACKOFF_MS;
      })
      .finally(() => {
        freeSlot();
        this.inFlight.delete(delivery.id);
        // Still pending (retried later, or cut by a stop): back in the heap at its new time.
        if (this.known.has(delivery.id)) this.wait(delivery);
        this.pump();
      });
    this.inFlight.set(delivery.id, run);
  }

  /** A slot of the destination: one this process holds unused, else a free one of the store. */
  private async slotFor(destination: string, slots: DestinationSlots): Promise<number | null> {
    const idle = this.idleSlots.get(destination);
    const reused = idle?.pop();
    if (idle?.length === 0) this.idleSlots.delete(destination);
    if (reused !== undefined) return reused.slot;
    const full = this.fullUntil.get(destination);
    if (full !== undefined && full > this.deps.now()) return null;
    this.fullUntil.delete(destination);
    const slot = await slots.take(destination);
    if (slot === null) this.fullUntil.set(destination, this.deps.now() + SLOT_RECHECK_MS);
    return slot;
  }

  private idle(destination: string, slot: number): void {
    const idle = this.idleSlots.get(destination) ?? [];
    idle.push({ slot, since: this.deps.now() });
    this.idleSlots.set(destination, idle);
    if (this.slotTimer === undefined && this.running) {
      this.slotTimer = this.deps.timers.set(() => this.giveIdleSlots(), SLOT_LINGER_MS);
    }
  }

  /** Gives back the slots unused for SLOT_LINGER_MS. */
  private giveIdleSlots(): void {
    this.slotTimer = undefined;
    const slots = this.deps.slots;
    if (slots === undefined || !this.running) return;
    const now = this.deps.now();
    let next = Infinity;
    for (const [destination, idle] of this.idleSlots) {
      const kept = idle.filter(({ since }) => now - since < SLOT_LINGER_MS);
      for (const { slot, since } of idle) {
        if (now - since < SLOT_LINGER_MS) continue;
        slots.give(destination, slot).catch((error: unknown) => {
          // It goes back when its lease ends.
          this.deps.onError(`giving back a slot of ${destination}: ${String(error)}`);
        });
      }
      if (kept.length === 0) this.idleSlots.delete(destination);
      else this.idleSlots.set(destination, kept);
      for (const { since } of kept) next = Math.min(next, since + SLOT_LINGER_MS);
    }
    if (next !== Infinity) this.slotTimer = this.deps.timers.set(() => this.giveIdleSlots(), next - now);
  }

  /**
   * Sends the attempt, in a slot of its destination; null when it is no attempt: every slot is
   * taken elsewhere (it waits), or the service is stopping (it stays unrecorded).
   */
  private async send(
    delivery: PendingDelivery,
    target: DeliveryTarget,
    at: number,
    held: { slot: number | null },
  ): Promise<PostResult | null> {
    if (this.deps.slots !== undefined) {
      held.slot = await this.slotFor(healthKey(delivery.tenant, delivery.destination), this.deps.slots);
      if (held.slot === null) {
        // The destination has its whole share in flight across the processes: not an attempt.
        delivery.firstTarget = target;
        delivery.nextAttemptAt = this.deps.now() + SLOT_RECHECK_MS;
        return null;
      }
      // Stopping meanwhile: the grace is for attempts already on the wire, not for new ones.
      if (!this.running) return null;
    }
    const headers =
      target.signingSecrets.length === 0
        ? {}
        : { ...signWebhook(target.signingSecrets, target.eventId, Math.floor(at / 1000), target.body) };
    try {
      return await this.deps.send(
        { url: target.url, body: target.body, headers, traceparent: delivery.traceparent },
        this.shutdown.signal,
        target.merchantId,
      );
    } catch (error) {
      if (error instanceof AttemptAbandoned) return null;
      throw error;
    }
  }

  /** An attempt that cannot be signed: recorded as one, with nothing sent (contract, "Secrets at rest"). */
  private unsent(delivery: PendingDelivery, reason: string): PostResult {
    this.deps.onUnsent?.(delivery.id, reason);
    return { outcome: { error: 'secret_unavailable' }, latencyMs: 0, answerExcerpt: reason };
  }

  private noteTimeout(delivery: PendingDelivery, timedOut: boolean): void {
    const key = healthKey(delivery.tenant, delivery.destination);
    const before = this.health.shareOf(key);
    this.health.ended(key, timedOut);
    if (timedOut) this.deps.onTimedOut?.(delivery, before > 1 && this.health.shareOf(key) === 1);
  }

  private async attempt(
    delivery: PendingDelivery,
    freeSlot: () => void,
    held: { slot: number | null },
  ): Promise<void> {
    const { store, schedule } = this.deps;
    const at = this.deps.now();
    if (!mayStart(schedule, delivery.firstAttemptAt, at)) {
      await store.expire(delivery.id, delivery.leaseEpoch);
      this.finish(delivery);
      return;
    }
    if (this.deps.leasesHeld?.() === false) {
      // Not an attempt either: it waits until the leases are renewed (or another process takes it).
      delivery.nextAttemptAt = this.deps.now() + ORDER_RECHECK_MS;
      return;
    }
    if (!this.followsKnownOrder(delivery)) {
      if (await store.earlierPending(delivery)) {
        // Not an attempt: nothing is sent or recorded, and the slot is free again at once.
        delivery.nextAttemptAt = this.deps.now() + ORDER_RECHECK_MS;
        return;
      }
      this.inOrder.add(delivery);
    }
    const target = delivery.firstTarget ?? (await store.target(delivery.id));
    delivery.firstTarget = undefined;
    if (target === null) {
      this.finish(delivery);
      return;
    }
    const sent =
      target.unsignable === undefined
        ? await this.send(delivery, target, at, held)
        : this.unsent(delivery, target.unsignable);
    if (sent === null) return;
    const { laterListeners, ...result } = sent;
    // Before the slot frees, so that the destination's line is given its new share.
    this.noteTimeout(delivery, 'error' in result.outcome && result.outcome.error === 'timeout');
    freeSlot();
    const n = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ?? at;
    const endedAt = this.deps.now();
    const step = nextStep(
      schedule,
      { n, firstAttemptAt, endedAt, outcome: result.outcome },
      this.deps.random,
    );
    // Delivered, or failed for good: the transaction's next event may go now, while this attempt
    // is recorded. Records commit in the order they are made (one write queue), so a crash never
    // keeps a later delivery's record without this one's: after a restart both go again, in order.
    // A retry waits for its record; the freed slot goes to whatever else is due.
    const ended = step.state !== 'pending';
    if (ended) this.finish(delivery, false);
    this.pump();
    let kept: RecordOutcome;
    try {
      kept = await store.record(delivery.id, { ...result, n, at, firstAttemptAt, step }, delivery.leaseEpoch);
    } catch (error) {
      // Not recorded, so still pending in the store: it goes again later (at least once), after
      // the next event of its transaction if that one went meanwhile.
      if (ended) {
        delivery.nextAttemptAt = this.deps.now() + STORE_FAILURE_BACKOFF_MS;
        this.insert(delivery);
      }
      throw error;
    }
    // Settled once its record has committed: until then it is pending in the store, so a claim
    // made for the room it freed would find it held, and its transaction's next one not yet due.
    if (ended && !this.queues.has(delivery.orderKey)) this.deps.onSettled?.(delivery.orderKey);
    if (kept === 'taken') {
      // Another process took the lease meanwhile (this one could not renew it in time): the
      // delivery is its own now, and it makes the attempt again (at least once, same event_id).
      this.deps.onError(`delivery ${delivery.id}: lease taken by another process; attempt ${n} not recorded`);
    }
    if (kept !== 'recorded') {
      // Gone: erased with its account (a reset) while the attempt was in flight; nothing to say.
      if (!ended) this.lose(delivery);
      return;
    }
    delivery.attempts = n;
    delivery.firstAttemptAt = firstAttemptAt;
    if (!ended) delivery.nextAttemptAt = step.nextAttemptAt;
    if (laterListeners === undefined) return;
    const first = result.listeners ?? [];
    recordLaterListeners(laterListeners, (rest) =>
      this.deps.store.recordListeners(delivery.id, n, [...first, ...rest]),
    ).catch((error: unknown) =>
      this.deps.onError(
        `delivery ${delivery.id}: the listeners' answers to attempt ${n} not recorded: ${String(error)}`,
      ),
    );
  }
}
