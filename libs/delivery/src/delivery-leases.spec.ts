import { CLAIM_AHEAD, DeliveryLeases, type LeaseStore } from './delivery-leases';
import { healthKey } from './destination-health';
import {
  Dispatcher,
  type DeliveryStore,
  type DestinationSlots,
  type PendingDelivery,
  type RecordedAttempt,
  type RecordOutcome,
} from './dispatcher';
import { CONTRACT_SCHEDULE } from './retry-policy';
import { AttemptAbandoned, type PostResult, type WebhookPost } from './webhook-post';

const T0 = 1_795_334_400_000;
const LEASE_MS = 9_000;
const CLAIM_EVERY_MS = 1_000;
/** Attempts in flight to one destination, across every process. */
const SHARE = 3;
/** Each process's attempts in flight at once. */
const SLOTS = 8;

/** A clock that moves only when told, with timers that fire as it passes them. */
class FakeTime {
  now = T0;
  private timers: Array<{ at: number; callback: () => void; id: number }> = [];
  private nextId = 1;

  readonly api = {
    set: (callback: () => void, delayMs: number): unknown => {
      const id = this.nextId++;
      this.timers.push({ at: this.now + delayMs, callback, id });
      return id;
    },
    clear: (handle: unknown): void => {
      this.timers = this.timers.filter((t) => t.id !== handle);
    },
  };

  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = Math.max(this.now, due.at);
      due.callback();
    }
    this.now = until;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

interface Row {
  delivery: PendingDelivery;
  state: 'pending' | 'delivered' | 'failed';
  owner: string | null;
  until: number | null;
}

/** The outbox as the database keeps it, shared by every process of the test. */
class SharedOutbox {
  readonly rows = new Map<string, Row>();
  /** Per destination, the owner of each of its SHARE slots (null: free). */
  readonly slots = new Map<string, Array<string | null>>();

  constructor(private readonly time: FakeTime) {}

  stage(owner: string, id: string, orderKey: string): PendingDelivery {
    const position = [...this.rows.values()].filter((row) => row.delivery.orderKey === orderKey).length + 1;
    const delivery: PendingDelivery = {
      id,
      orderKey,
      position,
      destination: 'http://receiver.test',
      tenant: 'merchant-a',
      attempts: 0,
      firstAttemptAt: null,
      nextAttemptAt: this.time.now,
      leaseEpoch: 0,
    };
    this.rows.set(id, {
      delivery: { ...delivery },
      state: 'pending',
      owner,
      until: this.time.now + LEASE_MS,
    });
    return delivery;
  }

  earlierPending({ orderKey, position }: PendingDelivery): boolean {
    return [...this.rows.values()].some(
      (row) =>
        row.state === 'pending' && row.delivery.orderKey === orderKey && row.delivery.position < position,
    );
  }
}

/** One process's view of the outbox: it writes only what it holds. A dead one never answers. */
class ProcessStore implements DeliveryStore, LeaseStore, DestinationSlots {
  dead = false;
  renewFails = false;

  constructor(
    private readonly outbox: SharedOutbox,
    readonly owner: string,
  ) {}

  private row(id: string): Row {
    const row = this.outbox.rows.get(id);
    if (row === undefined) throw new Error(`no row ${id}`);
    return row;
  }

  async adopt(): Promise<PendingDelivery[]> {
    return [];
  }

  async target(id: string) {
    if (this.dead) return never<null>();
    return {
      url: `http://receiver.test/${id}`,
      body: `{"event_id":"evt-${id}"}`,
      eventId: `evt-${id}`,
      merchantId: 'merchant-a',
      signingSecrets: [],
    };
  }

  async record(id: string, attempt: RecordedAttempt): Promise<RecordOutcome> {
    if (this.dead) return never();
    const row = this.row(id);
    if (row.owner !== this.owner) return 'taken';
    row.delivery.attempts = attempt.n;
    row.delivery.firstAttemptAt = attempt.firstAttemptAt;
    if (attempt.step.state === 'pending') row.delivery.nextAttemptAt = attempt.step.nextAttemptAt;
    else row.state = attempt.step.state;
    return 'recorded';
  }

  async expire(id: string): Promise<void> {
    if (this.row(id).owner === this.owner) this.row(id).state = 'failed';
  }

  async recordListeners(): Promise<void> {}

  async earlierPending(delivery: PendingDelivery): Promise<boolean> {
    if (this.dead) return never();
    return this.outbox.earlierPending(delivery);
  }

  async claim(now: number, until: number, limit: number): Promise<PendingDelivery[]> {
    if (this.dead) return never();
    const claimable = [...this.outbox.rows.values()]
      .filter(
        (row) =>
          row.state === 'pending' &&
          (row.until === null || (row.until < now && row.owner !== this.owner)) &&
          !this.outbox.earlierPending(row.delivery),
      )
      .sort((a, b) => a.delivery.nextAttemptAt - b.delivery.nextAttemptAt)
      .slice(0, limit);
    for (const row of claimable) {
      row.owner = this.owner;
      row.until = until;
    }
    return claimable.map((row) => ({ ...row.delivery }));
  }

  async renew(until: number): Promise<string[]> {
    if (this.dead) return never();
    if (this.renewFails) throw new Error('connection lost');
    const held = [...this.outbox.rows.values()].filter(
      (row) => row.state === 'pending' && row.owner === this.owner,
    );
    for (const row of held) row.until = until;
    return held.map((row) => row.delivery.id);
  }

  async take(destination: string): Promise<number | null> {
    if (this.dead) return never();
    const slots = this.outbox.slots.get(destination) ?? Array<string | null>(SHARE).fill(null);
    this.outbox.slots.set(destination, slots);
    const free = slots.indexOf(null);
    if (free === -1) return null;
    slots[free] = this.owner;
    return free;
  }

  async give(destination: string, slot: number): Promise<void> {
    const slots = this.outbox.slots.get(destination);
    if (slots?.[slot] === this.owner) slots[slot] = null;
  }

  async release(): Promise<void> {
    for (const slots of this.outbox.slots.values()) {
      for (const [slot, owner] of slots.entries()) if (owner === this.owner) slots[slot] = null;
    }
    for (const row of this.outbox.rows.values()) {
      if (row.state === 'pending' && row.owner === this.owner) {
        row.owner = null;
        row.until = null;
      }
    }
  }
}

interface Sent {
  by: string;
  eventId: string;
  at: number;
}

/** A receiver all processes post to; while `hangs`, an attempt waits until its process stops. */
class Receiver {
  readonly sent: Sent[] = [];
  hangs = false;
  status = 200;
  /** While true, every request waits for `answerHeld`. */
  holds = false;
  open = 0;
  mostOpen = 0;
  private held: Array<() => void> = [];

  constructor(private readonly time: FakeTime) {}

  sendFor(store: ProcessStore) {
    return (post: WebhookPost, shutdown: AbortSignal): Promise<PostResult> => {
      if (store.dead) return never();
      this.sent.push({
        by: store.owner,
        eventId: JSON.parse(post.body).event_id as string,
        at: this.time.now,
      });
      if (this.holds) {
        this.open += 1;
        this.mostOpen = Math.max(this.mostOpen, this.open);
        return new Promise((resolve) =>
          this.held.push(() => {
            this.open -= 1;
            resolve({ outcome: { statusCode: 200 }, latencyMs: 1, answerExcerpt: '' });
          }),
        );
      }
      if (this.hangs)
        return new Promise((_, reject) =>
          shutdown.addEventListener('abort', () => reject(new AttemptAbandoned())),
        );
      return Promise.resolve({ outcome: { statusCode: this.status }, latencyMs: 1, answerExcerpt: '' });
    };
  }

  answerHeld(): void {
    this.holds = false;
    for (const answer of this.held.splice(0)) answer();
  }

  eventsBy(owner: string): string[] {
    return this.sent.filter((sent) => sent.by === owner).map((sent) => sent.eventId);
  }
}

/** One API process: its dispatcher and its leases on the shared outbox. */
class Process {
  readonly store: ProcessStore;
  readonly dispatcher: Dispatcher;
  readonly leases: DeliveryLeases;
  readonly errors: string[] = [];

  constructor(
    private readonly outbox: SharedOutbox,
    owner: string,
    time: FakeTime,
    receiver: Receiver,
    sharedSlots = false,
    claimBatch = 2,
  ) {
    this.store = new ProcessStore(outbox, owner);
    this.leases = new DeliveryLeases({
      store: this.store,
      leaseMs: LEASE_MS,
      claimEveryMs: CLAIM_EVERY_MS,
      claimBatch,
      now: () => time.now,
      timers: time.api,
      onError: (message) => this.errors.push(message),
      orderKeyOf: (delivery) => delivery.orderKey,
    });
    this.dispatcher = new Dispatcher({
      store: this.store,
      send: receiver.sendFor(this.store),
      schedule: CONTRACT_SCHEDULE,
      now: () => time.now,
      random: () => 0.5,
      timers: time.api,
      maxConcurrent: SLOTS,
      maxPerDestination: SLOTS,
      onError: (message) => this.errors.push(message),
      leasesHeld: () => this.leases.held(),
      onSettled: (orderKey) => this.leases.settled(orderKey),
      slots: sharedSlots ? this.store : undefined,
    });
  }

  async start(): Promise<void> {
    this.leases.begin(this.dispatcher);
    await this.dispatcher.start();
  }

  /** Stages a delivery leased to this process and hands it to its dispatcher. */
  stage(id: string, orderKey: string): void {
    this.dispatcher.add(this.outbox.stage(this.store.owner, id, orderKey));
  }

  /** SIGKILL: nothing of it runs any more, and nothing it had started ever answers. */
  kill(): void {
    this.store.dead = true;
  }

  /** A graceful stop: attempts cut, leases given back. */
  async stop(): Promise<void> {
    await this.leases.stop();
    await this.dispatcher.stop();
    await this.leases.release();
  }
}

describe('deliveries leased from an outbox several processes share', () => {
  let time: FakeTime;
  let outbox: SharedOutbox;
  let receiver: Receiver;
  let a: Process;
  let b: Process;

  beforeEach(async () => {
    time = new FakeTime();
    outbox = new SharedOutbox(time);
    receiver = new Receiver(time);
    a = new Process(outbox, 'replica-a/1', time, receiver);
    b = new Process(outbox, 'replica-b/1', time, receiver);
    await a.start();
    await b.start();
  });

  afterEach(async () => {
    for (const process of [a, b]) if (!process.store.dead) await process.stop();
  });

  it('sends what a process staged from that process at once, and nothing twice', async () => {
    for (let i = 0; i < 5; i += 1) {
      a.stage(`a${i}`, `tx-a${i}`);
      b.stage(`b${i}`, `tx-b${i}`);
    }
    await settle();
    expect(receiver.eventsBy('replica-a/1')).toEqual([0, 1, 2, 3, 4].map((i) => `evt-a${i}`));
    expect(receiver.eventsBy('replica-b/1')).toEqual([0, 1, 2, 3, 4].map((i) => `evt-b${i}`));
    // Leases renewed and claims looked for, for a while: still each once.
    await time.advance(3 * LEASE_MS);
    expect(receiver.sent).toHaveLength(10);
  });

  it("takes over a killed process's deliveries once their leases end: same events, in order, each once", async () => {
    receiver.hangs = true;
    a.stage('a1', 'tx');
    a.stage('a2', 'tx');
    a.stage('a3', 'tx');
    a.stage('c1', 'tx-c');
    await settle();
    expect(receiver.eventsBy('replica-a/1')).toEqual(['evt-a1', 'evt-c1']);
    a.kill();
    receiver.hangs = false;

    // Held until the leases end: the other process waits.
    await time.advance(LEASE_MS - 1);
    expect(receiver.eventsBy('replica-b/1')).toEqual([]);
    await time.advance(CLAIM_EVERY_MS + 1);
    // The head of each transaction first; each next one is claimed once the one before settled.
    await time.advance(10);
    expect(receiver.eventsBy('replica-b/1').filter((id) => id.startsWith('evt-a'))).toEqual([
      'evt-a1',
      'evt-a2',
      'evt-a3',
    ]);
    expect(receiver.eventsBy('replica-b/1')).toContain('evt-c1');
    expect(
      [...outbox.rows.values()].every((row) => row.state === 'delivered' && row.owner === 'replica-b/1'),
    ).toBe(true);
  });

  it('gives its leases back at a graceful stop: another process takes them within a claim interval', async () => {
    receiver.hangs = true;
    a.stage('a1', 'tx');
    a.stage('a2', 'tx');
    await settle();
    await a.stop();
    receiver.hangs = false;
    await time.advance(CLAIM_EVERY_MS);
    expect(receiver.eventsBy('replica-b/1')).toEqual(['evt-a1', 'evt-a2']);
    // The attempt cut by the stop was not recorded: the taker's is attempt 1.
    expect(outbox.rows.get('a1')?.delivery.attempts).toBe(1);
  });

  it('makes no attempt once it could not renew its leases, and its late record is fenced off', async () => {
    receiver.status = 503;
    a.stage('a1', 'tx');
    await settle();
    a.store.renewFails = true;
    await time.advance(LEASE_MS - 1);
    const beforeLeaseEnd = receiver.eventsBy('replica-a/1').length;
    expect(beforeLeaseEnd).toBeGreaterThan(1);
    await time.advance(CLAIM_EVERY_MS + 1);
    await time.advance(5 * LEASE_MS);
    // No attempt from a after its lease ended; b took the delivery over and goes on retrying it.
    expect(receiver.sent.filter((sent) => sent.by === 'replica-a/1' && sent.at >= T0 + LEASE_MS)).toEqual([]);
    expect(receiver.eventsBy('replica-b/1').length).toBeGreaterThan(0);
    expect(outbox.rows.get('a1')?.owner).toBe('replica-b/1');
    // Its connection back, a renews nothing more and forgets the delivery it lost.
    a.store.renewFails = false;
    await time.advance(LEASE_MS);
    expect(a.dispatcher.pendingCount).toBe(0);
  });

  it('never hands out a later delivery while an earlier one of its transaction is held by a live process', async () => {
    receiver.hangs = true;
    a.stage('a1', 'tx');
    await settle();
    // a2 was staged by a process that died at once: its lease ends, but a1 is still pending.
    outbox.stage('replica-c/1', 'a2', 'tx');
    await time.advance(3 * LEASE_MS);
    expect(receiver.eventsBy('replica-b/1')).toEqual([]);
    expect(outbox.rows.get('a2')?.owner).toBe('replica-c/1');
  });

  describe('a claim bounded by what a process can start', () => {
    /** A dead process's backlog, its leases ended: many claims' worth of the processes' room. */
    const BACKLOG = 60;
    let c: Process;
    let d: Process;

    afterEach(async () => {
      receiver.answerHeld();
      for (const process of [c, d]) await process?.stop();
    });

    const heldBy = (owner: string): number =>
      [...outbox.rows.values()].filter((row) => row.state === 'pending' && row.owner === owner).length;

    it("spreads a dead process's backlog over the processes as each can start it, and keeps claiming a few while full", async () => {
      for (let i = 0; i < BACKLOG; i += 1) outbox.stage('replica-dead/1', `x${i}`, `tx-x${i}`);
      for (const row of outbox.rows.values()) row.until = T0 - 1;
      // Only the two processes of the drill claim.
      a.kill();
      b.kill();
      // Every attempt waits for its answer: what a process holds is what it claimed.
      receiver.holds = true;
      c = new Process(outbox, 'replica-c/1', time, receiver, false, 256);
      d = new Process(outbox, 'replica-d/1', time, receiver, false, 256);

      // The first to claim takes its free slots and a few ahead, not the whole backlog.
      await c.start();
      await time.advance(0);
      expect(heldBy('replica-c/1')).toBe(SLOTS + CLAIM_AHEAD);
      expect(receiver.open).toBe(SLOTS);
      // The next process to claim finds the rest.
      await d.start();
      await time.advance(0);
      expect(heldBy('replica-d/1')).toBe(SLOTS + CLAIM_AHEAD);

      // Full, each claim takes a few more: room for a merchant that comes meanwhile.
      await time.advance(CLAIM_EVERY_MS);
      expect([heldBy('replica-c/1'), heldBy('replica-d/1')]).toEqual([
        SLOTS + 2 * CLAIM_AHEAD,
        SLOTS + 2 * CLAIM_AHEAD,
      ]);
      receiver.answerHeld();
      await time.advance(10 * CLAIM_EVERY_MS);
      expect([...outbox.rows.values()].every((row) => row.state === 'delivered')).toBe(true);
    });
  });

  describe("a destination's share", () => {
    let c: Process;
    let d: Process;

    beforeEach(async () => {
      c = new Process(outbox, 'replica-c/1', time, receiver, true);
      d = new Process(outbox, 'replica-d/1', time, receiver, true);
      await c.start();
      await d.start();
    });

    afterEach(async () => {
      await c.stop();
      await d.stop();
    });

    it('counts the attempts in flight of every process, and what waits goes once a slot is free', async () => {
      receiver.holds = true;
      for (let i = 0; i < 5; i += 1) {
        c.stage(`c${i}`, `tx-c${i}`);
        d.stage(`d${i}`, `tx-d${i}`);
      }
      await time.advance(2_000);
      expect(receiver.mostOpen).toBe(SHARE);
      receiver.answerHeld();
      await time.advance(2_000);
      expect(receiver.mostOpen).toBe(SHARE);
      expect([...outbox.rows.values()].map((row) => row.state)).toEqual(Array(10).fill('delivered'));
      expect(receiver.sent).toHaveLength(10);
      // Unused, every slot of the merchant's destination goes back soon: none stays held.
      expect(outbox.slots.get(healthKey('merchant-a', 'http://receiver.test'))).toEqual(
        Array(SHARE).fill(null),
      );
    });

    it('lets a later event of a transaction reuse the slot of the one before, with no statement', async () => {
      const taken = jest.spyOn(c.store, 'take');
      c.stage('c1', 'tx');
      c.stage('c2', 'tx');
      c.stage('c3', 'tx');
      await settle();
      expect(receiver.eventsBy('replica-c/1')).toEqual(['evt-c1', 'evt-c2', 'evt-c3']);
      expect(taken).toHaveBeenCalledTimes(1);
    });
  });
});
