import {
  Dispatcher,
  type DeliveryStore,
  type DestinationSlots,
  type DispatcherDeps,
  type PendingDelivery,
  type RecordedAttempt,
  type RecordOutcome,
} from './dispatcher';
import { CUT_AFTER_TIMEOUTS } from './destination-health';
import { CONTRACT_SCHEDULE, type AttemptOutcome } from './retry-policy';
import { AttemptAbandoned, type ListenerAnswer, type PostResult, type WebhookPost } from './webhook-post';
import { verifyWebhook } from './webhook-signature';

const T0 = 1_795_334_400_000;
const RECEIVER = 'http://receiver.test';

/** A clock that moves only when told, with timers that fire as it passes them. */
class FakeTime {
  now = T0;
  private timers: Array<{ at: number; callback: () => void; id: number }> = [];
  private nextId = 1;
  maxArmed = 0;

  readonly api = {
    set: (callback: () => void, delayMs: number): unknown => {
      const id = this.nextId++;
      this.timers.push({ at: this.now + delayMs, callback, id });
      this.maxArmed = Math.max(this.maxArmed, this.timers.length);
      return id;
    },
    clear: (handle: unknown): void => {
      this.timers = this.timers.filter((t) => t.id !== handle);
    },
  };

  get armed(): number {
    return this.timers.length;
  }

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

/** Lets every promise chain that can move, move. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

interface Row {
  delivery: PendingDelivery;
  url: string;
  body: string;
  eventId: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: RecordedAttempt[];
}

/** The outbox as the database keeps it, in memory. */
class MemoryStore implements DeliveryStore {
  readonly rows = new Map<string, Row>();
  secret: string | null = null;
  /** Set: the merchant's secret cannot be opened (sealed under a key the process lacks), and why. */
  unsignable: string | undefined;

  save(
    id: string,
    orderKey: string,
    now: number,
    destination = RECEIVER,
    tenant = 'merchant-a',
  ): PendingDelivery {
    const delivery: PendingDelivery = {
      id,
      orderKey,
      position: this.rows.size + 1,
      destination,
      tenant,
      attempts: 0,
      firstAttemptAt: null,
      nextAttemptAt: now,
      leaseEpoch: 0,
    };
    this.rows.set(id, {
      delivery: { ...delivery },
      url: `${destination}/${orderKey}`,
      body: JSON.stringify({ event_id: `evt-${id}` }),
      eventId: `evt-${id}`,
      state: 'pending',
      attempts: [],
    });
    return delivery;
  }

  row(id: string): Row {
    const row = this.rows.get(id);
    if (row === undefined) throw new Error(`no row ${id}`);
    return row;
  }

  /** One process on the outbox: it takes every pending delivery at start. */
  async adopt(): Promise<PendingDelivery[]> {
    return [...this.rows.values()].filter((r) => r.state === 'pending').map((r) => ({ ...r.delivery }));
  }

  targetReads = 0;

  async target(id: string) {
    this.targetReads += 1;
    if (!this.rows.has(id)) return null;
    const row = this.row(id);
    return {
      url: row.url,
      body: row.body,
      eventId: row.eventId,
      signingSecrets: this.secret === null ? [] : [this.secret],
      merchantId: 'merchant-a',
      ...(this.unsignable === undefined ? {} : { unsignable: this.unsignable }),
    };
  }

  private failures = 0;
  private held: Array<() => void> | undefined;

  /** The next `count` records fail, as on a full disk. */
  failRecords(count: number): void {
    this.failures = count;
  }

  /** Records wait until `commitHeld()`, as behind a slow write. */
  holdRecords(): void {
    this.held = [];
  }

  commitHeld(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const commit of held) commit();
  }

  async record(id: string, attempt: RecordedAttempt): Promise<RecordOutcome> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('disk full');
    }
    const held = this.held;
    if (held !== undefined) await new Promise<void>((resolve) => held.push(resolve));
    const row = this.row(id);
    row.attempts.push(attempt);
    row.delivery.attempts = attempt.n;
    row.delivery.firstAttemptAt = attempt.firstAttemptAt;
    if (attempt.step.state === 'pending') row.delivery.nextAttemptAt = attempt.step.nextAttemptAt;
    else row.state = attempt.step.state;
    return 'recorded';
  }

  async expire(id: string): Promise<void> {
    this.row(id).state = 'failed';
  }

  async recordListeners(id: string, n: number, listeners: readonly ListenerAnswer[]): Promise<void> {
    const attempt = this.row(id).attempts.find((recorded) => recorded.n === n);
    if (attempt !== undefined)
      this.row(id).attempts[this.row(id).attempts.indexOf(attempt)] = { ...attempt, listeners };
  }

  earlierPendingReads = 0;

  async earlierPending({ orderKey, position }: PendingDelivery): Promise<boolean> {
    this.earlierPendingReads += 1;
    return [...this.rows.values()].some(
      (row) =>
        row.state === 'pending' && row.delivery.orderKey === orderKey && row.delivery.position < position,
    );
  }
}

interface Sent {
  post: WebhookPost;
  at: number;
}

/**
 * A receiver whose answers the test scripts per URL; `hold` keeps a request in flight, and a
 * hanging destination answers nothing until the attempt times out.
 */
class FakeReceiver {
  readonly sent: Sent[] = [];
  private readonly scripts = new Map<string, AttemptOutcome[]>();
  hold = false;
  private held: Array<() => void> = [];
  private readonly hanging = new Map<string, number>();
  private readonly open = new Map<string, number>();
  /** The most attempts ever in flight at once, per destination. */
  readonly peak = new Map<string, number>();

  constructor(private readonly time: FakeTime) {}

  answer(orderKey: string, ...outcomes: AttemptOutcome[]): void {
    this.scripts.set(`${RECEIVER}/${orderKey}`, outcomes);
  }

  /** Every attempt to `destination` from now on ends as a timeout `timeoutMs` after it starts. */
  hangs(destination: string, timeoutMs: number): void {
    this.hanging.set(destination, timeoutMs);
  }

  answers(destination: string): void {
    this.hanging.delete(destination);
  }

  readonly send = (post: WebhookPost, shutdown: AbortSignal): Promise<PostResult> => {
    const destination = new URL(post.url).origin;
    const open = (this.open.get(destination) ?? 0) + 1;
    this.open.set(destination, open);
    this.peak.set(destination, Math.max(open, this.peak.get(destination) ?? 0));
    return this.reply(post, shutdown).finally(() =>
      this.open.set(destination, (this.open.get(destination) ?? 1) - 1),
    );
  };

  private reply(post: WebhookPost, shutdown: AbortSignal): Promise<PostResult> {
    this.sent.push({ post, at: this.time.now });
    const timeoutMs = this.hanging.get(new URL(post.url).origin);
    if (timeoutMs !== undefined) {
      return new Promise((resolve, reject) => {
        const abandon = (): void => {
          this.time.api.clear(timer);
          reject(new AttemptAbandoned());
        };
        const timer = this.time.api.set(() => {
          shutdown.removeEventListener('abort', abandon);
          resolve({ outcome: { error: 'timeout' }, latencyMs: timeoutMs, answerExcerpt: '' });
        }, timeoutMs);
        shutdown.addEventListener('abort', abandon);
      });
    }
    if (this.hold) {
      return new Promise((resolve, reject) => {
        this.held.push(() => resolve({ outcome: { statusCode: 200 }, latencyMs: 5, answerExcerpt: '' }));
        shutdown.addEventListener('abort', () => reject(new AttemptAbandoned()));
      });
    }
    const script = this.scripts.get(post.url) ?? [];
    const outcome = script.length > 1 ? script.shift()! : (script[0] ?? { statusCode: 200 });
    return Promise.resolve({ outcome, latencyMs: 5, answerExcerpt: 'ok' });
  }

  /** Answers 200 to every request held so far. */
  release(): void {
    const held = this.held;
    this.held = [];
    for (const answer of held) answer();
  }

  bodiesTo(orderKey: string): string[] {
    return this.sent.filter((s) => s.post.url.endsWith(`/${orderKey}`)).map((s) => s.post.body);
  }

  /** The event ids sent to a destination, in the order the attempts started. */
  eventsTo(destination: string): string[] {
    return this.sent
      .filter((s) => s.post.url.startsWith(`${destination}/`))
      .map((s) => (JSON.parse(s.post.body) as { event_id: string }).event_id);
  }
}

function dispatcherFor(
  store: MemoryStore,
  time: FakeTime,
  receiver: FakeReceiver,
  maxConcurrent = 8,
  maxPerDestination = maxConcurrent,
  cutAfterTimeouts?: number,
  more: Partial<DispatcherDeps> = {},
) {
  const errors: string[] = [];
  const unsent: string[] = [];
  const dispatcher = new Dispatcher({
    store,
    send: receiver.send,
    schedule: CONTRACT_SCHEDULE,
    now: () => time.now,
    random: () => 0.5,
    timers: time.api,
    maxConcurrent,
    maxPerDestination,
    onError: (message) => errors.push(message),
    onUnsent: (id, reason) => unsent.push(`${id}: ${reason}`),
    cutAfterTimeouts,
    ...more,
  });
  return { dispatcher, errors, unsent };
}

describe('the dispatcher', () => {
  let time: FakeTime;
  let store: MemoryStore;
  let receiver: FakeReceiver;

  beforeEach(() => {
    time = new FakeTime();
    store = new MemoryStore();
    receiver = new FakeReceiver(time);
  });

  it('sends a new delivery at once, with no timer or poll tick in between', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    expect(receiver.sent).toEqual([
      { post: expect.objectContaining({ body: '{"event_id":"evt-d1"}' }), at: T0 },
    ]);
    expect(store.row('d1').state).toBe('delivered');
    expect(time.armed).toBe(0);
  });

  it("records the attempt at the URL's answer, and a slower listener's answer beside it once it comes (contract §6.1)", async () => {
    let answerLater: (answers: ListenerAnswer[]) => void = () => undefined;
    const later = new Promise<readonly ListenerAnswer[]>((resolve) => (answerLater = resolve));
    const send = async (): Promise<PostResult> => ({
      outcome: { statusCode: 200 },
      latencyMs: 5,
      answerExcerpt: '',
      listeners: [{ outcome: { statusCode: 202 }, latencyMs: 1 }],
      laterListeners: later,
    });
    const { dispatcher, errors } = dispatcherFor(store, time, receiver, 8, 8, undefined, { send });
    await dispatcher.start();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    expect(store.row('d1').state).toBe('delivered');
    expect(store.row('d1').attempts[0].listeners).toEqual([{ outcome: { statusCode: 202 }, latencyMs: 1 }]);
    expect(store.row('d1').attempts[0]).not.toHaveProperty('laterListeners');
    answerLater([{ outcome: { error: 'timeout' }, latencyMs: 15_000 }]);
    await settle();
    expect(store.row('d1').attempts[0].listeners).toEqual([
      { outcome: { statusCode: 202 }, latencyMs: 1 },
      { outcome: { error: 'timeout' }, latencyMs: 15_000 },
    ]);
    expect(errors).toEqual([]);
  });

  it('records an attempt it cannot sign as secret_unavailable, sends nothing, and retries it on the schedule until it runs out', async () => {
    const { dispatcher, unsent } = dispatcherFor(store, time, receiver);
    store.unsignable = 'sealed under key gone';
    await dispatcher.start();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await time.advance(CONTRACT_SCHEDULE.windowMs);
    expect(receiver.sent).toEqual([]);
    const { attempts, state } = store.row('d1');
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(
      Array.from({ length: CONTRACT_SCHEDULE.maxAttempts }, () => ({ error: 'secret_unavailable' })),
    );
    expect(attempts[0].answerExcerpt).toBe('sealed under key gone');
    expect(attempts.at(-1)?.step).toEqual({ state: 'failed', reason: 'attempts_exhausted' });
    expect(state).toBe('failed');
    expect(unsent).toHaveLength(CONTRACT_SCHEDULE.maxAttempts);
    expect(unsent[0]).toBe('d1: sealed under key gone');
  });

  it('sends once the secret opens again (the key added back), on the next attempt of the schedule', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    store.unsignable = 'sealed under key gone';
    await dispatcher.start();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    store.unsignable = undefined;
    await time.advance(CONTRACT_SCHEDULE.baseDelayMs + CONTRACT_SCHEDULE.jitterMs);
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-d1']);
    expect(store.row('d1').attempts.map((attempt) => attempt.outcome)).toEqual([
      { error: 'secret_unavailable' },
      { statusCode: 200 },
    ]);
    expect(store.row('d1').state).toBe('delivered');
  });

  it("holds a head while an earlier delivery of its transaction is pending in another process's outbox, and sends it once that one is settled", async () => {
    const { dispatcher, errors } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    // d1 was staged by another process sharing the database: this dispatcher never gets it.
    store.save('d1', 'tx-a', time.now);
    dispatcher.add(store.save('d2', 'tx-a', time.now));
    await settle();
    await time.advance(5_000);
    expect(receiver.sent).toEqual([]);
    // Waiting is not an attempt: nothing recorded, nothing lost from its window.
    expect(store.row('d2').attempts).toEqual([]);

    store.row('d1').state = 'delivered';
    await time.advance(1_000);
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-d2']);
    expect(store.row('d2').state).toBe('delivered');
    expect(errors).toEqual([]);
  });

  it('tells a transaction settled once its last delivery’s record has committed, not before: a claim then finds it settled', async () => {
    const settled: Array<{ orderKey: string; state: string }> = [];
    const { dispatcher } = dispatcherFor(store, time, receiver, 8, 8, undefined, {
      onSettled: (orderKey) => settled.push({ orderKey, state: store.row('d1').state }),
    });
    await dispatcher.start();
    store.holdRecords();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-d1']);
    expect(settled).toEqual([]);
    // The slot it freed counts at once, recorded or not.
    expect(dispatcher.room()).toBe(8);
    store.commitHeld();
    await settle();
    expect(settled).toEqual([{ orderKey: 'tx-a', state: 'delivered' }]);
  });

  it("asks the store nothing for a transaction's later deliveries once it settled the earlier ones itself", async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    // Queued behind an earlier one of this dispatcher, or arriving after it was delivered.
    receiver.hold = true;
    dispatcher.add(store.save('d2', 'tx-a', time.now));
    dispatcher.add(store.save('d3', 'tx-a', time.now));
    await settle();
    receiver.release();
    await settle();
    receiver.hold = false;
    receiver.release();
    await settle();
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-d1', 'evt-d2', 'evt-d3']);
    expect(store.earlierPendingReads).toBe(0);
  });

  it('drops a delivery whose row is gone (a sandbox reset) and sends the next one of its transaction', async () => {
    const { dispatcher, errors } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 });
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    store.rows.delete('d1');
    receiver.answer('tx-a', { statusCode: 200 });
    dispatcher.add(store.save('d2', 'tx-a', time.now));
    await time.advance(60_000);
    await settle();
    expect(receiver.sent.map((s) => s.post.body)).toEqual(['{"event_id":"evt-d1"}', '{"event_id":"evt-d2"}']);
    expect(store.row('d2').state).toBe('delivered');
    expect(dispatcher.pendingCount).toBe(0);
    expect(errors).toEqual([]);
  });

  it('sends a first attempt from what the stage knew, and reads the store again for a retry', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 200 });
    store.secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const staged = store.save('d1', 'tx-a', time.now);
    const body = '{"event_id":"evt-d1"}';
    dispatcher.add({
      ...staged,
      firstTarget: {
        url: `${RECEIVER}/tx-a`,
        body,
        eventId: 'evt-d1',
        signingSecrets: [],
        merchantId: 'merchant-a',
      },
    });
    await settle();
    expect(store.targetReads).toBe(0);
    expect(receiver.sent[0].post.headers).toEqual({});
    await time.advance(3000);
    // The retry is signed with the secret the store has now.
    expect(store.targetReads).toBe(1);
    expect(receiver.sent[1].post.headers).toHaveProperty('webhook-signature');
    expect(store.row('d1').state).toBe('delivered');
  });

  it('retries 503, 503 and delivers on the third attempt, each at its time', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 503 }, { statusCode: 200 });
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await settle();
    expect(receiver.sent).toHaveLength(1);
    await time.advance(2999);
    expect(receiver.sent).toHaveLength(1);
    await time.advance(1);
    expect(receiver.sent.map((s) => s.at - T0)).toEqual([0, 3000]);
    await time.advance(5000);
    expect(receiver.sent.map((s) => s.at - T0)).toEqual([0, 3000, 8000]);
    const row = store.row('d1');
    expect(row.state).toBe('delivered');
    expect(row.attempts.map((a) => [a.n, a.at - T0, a.outcome])).toEqual([
      [1, 0, { statusCode: 503 }],
      [2, 3000, { statusCode: 503 }],
      [3, 8000, { statusCode: 200 }],
    ]);
    expect(row.attempts.map((a) => a.step)).toEqual([
      { state: 'pending', nextAttemptAt: T0 + 3000 },
      { state: 'pending', nextAttemptAt: T0 + 8000 },
      { state: 'delivered' },
    ]);
  });

  it('makes exactly one attempt at a permanent rejection', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 400 });
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await time.advance(20 * 60_000);
    expect(receiver.sent).toHaveLength(1);
    expect(store.row('d1').state).toBe('failed');
  });

  it('abandons a receiver that never answers after 10 attempts', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { error: 'timeout' });
    dispatcher.add(store.save('d1', 'tx-a', time.now));
    await time.advance(20 * 60_000);
    expect(receiver.sent).toHaveLength(10);
    expect(store.row('d1').state).toBe('failed');
    expect(dispatcher.pendingCount).toBe(0);
  });

  it('keeps one timer, however many deliveries wait for a retry', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver, 1000);
    await dispatcher.start();
    for (let i = 0; i < 200; i += 1) {
      receiver.answer(`tx-${i}`, { statusCode: 503 }, { statusCode: 200 });
      dispatcher.add(store.save(`d${i}`, `tx-${i}`, time.now));
      time.now += 7;
    }
    await settle();
    expect(dispatcher.pendingCount).toBe(200);
    expect(time.maxArmed).toBe(1);
    await time.advance(10_000);
    expect(time.maxArmed).toBe(1);
    expect([...store.rows.values()].every((r) => r.state === 'delivered')).toBe(true);
    expect(time.armed).toBe(0);
  });

  it('holds a later event of a transaction while an earlier one is retried, and no other transaction', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 503 }, { statusCode: 200 });
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('a2', 'tx-a', time.now));
    dispatcher.add(store.save('b1', 'tx-b', time.now));
    dispatcher.add(store.save('b2', 'tx-b', time.now));
    await settle();
    expect(receiver.bodiesTo('tx-a')).toEqual(['{"event_id":"evt-a1"}']);
    expect(receiver.bodiesTo('tx-b')).toEqual(['{"event_id":"evt-b1"}', '{"event_id":"evt-b2"}']);
    await time.advance(10_000);
    expect(receiver.bodiesTo('tx-a')).toEqual([
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a2"}',
    ]);
  });

  it('lets the next event go once an earlier one has failed for good', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 404 }, { statusCode: 200 });
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('a2', 'tx-a', time.now));
    await settle();
    expect(receiver.bodiesTo('tx-a')).toEqual(['{"event_id":"evt-a1"}', '{"event_id":"evt-a2"}']);
    expect([store.row('a1').state, store.row('a2').state]).toEqual(['failed', 'delivered']);
  });

  it('resumes, after a restart, every pending delivery at its time and in order', async () => {
    const first = dispatcherFor(store, time, receiver).dispatcher;
    await first.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 200 });
    first.add(store.save('a1', 'tx-a', time.now));
    first.add(store.save('a2', 'tx-a', time.now));
    await settle();
    await first.stop();
    expect(receiver.sent).toHaveLength(1);

    const second = dispatcherFor(store, time, receiver).dispatcher;
    await second.start();
    await time.advance(2999);
    expect(receiver.sent).toHaveLength(1);
    await time.advance(1);
    expect(receiver.bodiesTo('tx-a')).toEqual([
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a2"}',
    ]);
    expect([store.row('a1').state, store.row('a2').state]).toEqual(['delivered', 'delivered']);
  });

  it('leaves an attempt cut by shutdown unrecorded and pending, and makes it again after a restart', async () => {
    const first = dispatcherFor(store, time, receiver).dispatcher;
    await first.start();
    receiver.hold = true;
    first.add(store.save('a1', 'tx-a', time.now));
    await settle();
    expect(receiver.sent).toHaveLength(1);
    await first.stop();
    expect(store.row('a1')).toMatchObject({ state: 'pending', attempts: [] });

    receiver.hold = false;
    const second = dispatcherFor(store, time, receiver).dispatcher;
    await second.start();
    await settle();
    expect(receiver.bodiesTo('tx-a')).toEqual(['{"event_id":"evt-a1"}', '{"event_id":"evt-a1"}']);
    expect(store.row('a1').state).toBe('delivered');
    expect(store.row('a1').attempts.map((a) => a.n)).toEqual([1]);
  });

  it('lets an attempt on the wire be answered and recorded within the stop grace, and cuts one that is not', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver, 8, 8, undefined, { stopGraceMs: 2000 });
    await dispatcher.start();
    receiver.hold = true;
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('b1', 'tx-b', time.now));
    await settle();
    expect(receiver.sent).toHaveLength(2);
    const stopped = dispatcher.stop();
    await settle();
    // Answered during the grace: recorded, so no other process makes it again.
    receiver.release();
    await settle();
    expect(store.row('a1')).toMatchObject({ state: 'delivered' });
    expect(store.row('a1').attempts.map((a) => a.n)).toEqual([1]);
    await stopped;

    const second = dispatcherFor(store, time, receiver, 8, 8, undefined, { stopGraceMs: 2000 }).dispatcher;
    await second.start();
    second.add(store.save('c1', 'tx-c', time.now));
    await settle();
    const cut = second.stop();
    await time.advance(2000);
    await cut;
    // Not answered within the grace: cut, unrecorded, still pending for whoever takes it next.
    expect(store.row('c1')).toMatchObject({ state: 'pending', attempts: [] });
  });

  it('fails with no further attempt a delivery found past its 15 minutes after a long stop', async () => {
    const first = dispatcherFor(store, time, receiver).dispatcher;
    await first.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 200 });
    first.add(store.save('a1', 'tx-a', time.now));
    await settle();
    await first.stop();
    await time.advance(16 * 60_000);

    const second = dispatcherFor(store, time, receiver).dispatcher;
    await second.start();
    await settle();
    expect(receiver.sent).toHaveLength(1);
    expect(store.row('a1').state).toBe('failed');
  });

  it('never has more attempts in flight than allowed; the others go as room frees', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver, 2);
    await dispatcher.start();
    receiver.hold = true;
    for (let i = 0; i < 5; i += 1) dispatcher.add(store.save(`d${i}`, `tx-${i}`, time.now));
    await settle();
    expect(receiver.sent).toHaveLength(2);
    // Due heads waiting for room need no timer: an attempt ending makes room and sends the next.
    expect(time.armed).toBe(0);
    receiver.release();
    await settle();
    expect(receiver.sent).toHaveLength(4);
    receiver.release();
    await settle();
    expect(receiver.sent).toHaveLength(5);
    receiver.release();
    await settle();
    expect([...store.rows.values()].map((r) => r.state)).toEqual(Array(5).fill('delivered'));
  });

  it('keeps a delivery pending when the store fails to record, and tries it again later', async () => {
    const { dispatcher, errors } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    store.failRecords(1);
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    await settle();
    expect(errors).toEqual([expect.stringContaining('disk full')]);
    expect(store.row('a1').state).toBe('pending');
    await time.advance(1000);
    expect(store.row('a1').state).toBe('delivered');
    expect(receiver.sent).toHaveLength(2);
  });

  it('sends the next event of a transaction once the earlier one is delivered, while its attempt is being recorded', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    store.holdRecords();
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('a2', 'tx-a', time.now));
    await settle();
    expect(receiver.bodiesTo('tx-a')).toEqual(['{"event_id":"evt-a1"}', '{"event_id":"evt-a2"}']);
    store.commitHeld();
    await settle();
    expect([store.row('a1').state, store.row('a2').state]).toEqual(['delivered', 'delivered']);
    expect(dispatcher.pendingCount).toBe(0);
  });

  it('frees a slot with the answer, not the record: a record waiting for the disk holds no destination back', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver, 1, 1);
    await dispatcher.start();
    store.holdRecords();
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('b1', 'tx-b', time.now));
    dispatcher.add(store.save('c1', 'tx-c', time.now));
    await settle();
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-a1', 'evt-b1', 'evt-c1']);
    expect(receiver.peak.get(RECEIVER)).toBe(1);
    expect(dispatcher.pendingCount).toBe(0);
    store.commitHeld();
    await settle();
    expect([...store.rows.values()].map((r) => r.state)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('keeps a retried delivery out of the line until its record commits', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver, 1, 1);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 200 });
    store.holdRecords();
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    await settle();
    await time.advance(60_000);
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-a1']);
    expect(store.row('a1').attempts).toHaveLength(0);
    // Recorded, and long due: the retry goes at once.
    store.commitHeld();
    await settle();
    expect(receiver.eventsTo(RECEIVER)).toEqual(['evt-a1', 'evt-a1']);
    expect(store.row('a1').attempts.map((a) => a.n)).toEqual([1, 2]);
    expect(store.row('a1').state).toBe('delivered');
  });

  it('still holds the next event while an earlier one waits for its retry, recorded or not', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    receiver.answer('tx-a', { statusCode: 503 }, { statusCode: 200 });
    store.holdRecords();
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('a2', 'tx-a', time.now));
    await settle();
    expect(receiver.bodiesTo('tx-a')).toEqual(['{"event_id":"evt-a1"}']);
  });

  it('sends a delivered event again later when its record failed, even after the next one went', async () => {
    const { dispatcher, errors } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    store.failRecords(1);
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    dispatcher.add(store.save('a2', 'tx-a', time.now));
    await settle();
    expect(errors).toEqual([expect.stringContaining('disk full')]);
    expect([store.row('a1').state, store.row('a2').state]).toEqual(['pending', 'delivered']);
    await time.advance(1000);
    expect(receiver.bodiesTo('tx-a')).toEqual([
      '{"event_id":"evt-a1"}',
      '{"event_id":"evt-a2"}',
      '{"event_id":"evt-a1"}',
    ]);
    expect(store.row('a1').state).toBe('delivered');
    expect(dispatcher.pendingCount).toBe(0);
  });

  it('signs each attempt when the merchant has a secret, with the event_id as webhook-id', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    store.secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    await settle();
    const { post } = receiver.sent[0];
    expect(post.headers['webhook-id']).toBe('evt-a1');
    expect(post.headers['webhook-timestamp']).toBe(String(T0 / 1000));
    expect(verifyWebhook(store.secret, post.headers, post.body, T0 / 1000)).toBe(true);
  });

  it('sends no signature headers when the merchant has no secret', async () => {
    const { dispatcher } = dispatcherFor(store, time, receiver);
    await dispatcher.start();
    dispatcher.add(store.save('a1', 'tx-a', time.now));
    await settle();
    expect(receiver.sent[0].post.headers).toEqual({});
  });

  describe('with a bounded share per destination', () => {
    const HANGING = 'http://hanging.test:8080';
    const HEALTHY = 'https://healthy.test';
    /** The share alone, never cut however long a destination keeps timing out. */
    const NO_CUT = Infinity;

    it('holds a hanging destination to its share: another destination is still sent at once', async () => {
      const { dispatcher } = dispatcherFor(store, time, receiver, 64, 8, NO_CUT);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 300; i += 1) dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, HANGING));
      await time.advance(35_000);

      dispatcher.add(store.save('o1', 'tx-o1', time.now, HEALTHY));
      await settle();
      expect(receiver.sent.filter((s) => s.post.url.startsWith(HEALTHY)).map((s) => s.at)).toEqual([
        time.now,
      ]);
      expect(store.row('o1').state).toBe('delivered');
      expect(receiver.peak.get(HANGING)).toBe(8);
      // Four rounds of 8 attempts, each held for the whole timeout: nothing more went out.
      expect(receiver.eventsTo(HANGING)).toHaveLength(32);
    });

    it('records nothing for a delivery waiting for its destination: its attempts and window have not begun', async () => {
      const { dispatcher } = dispatcherFor(store, time, receiver, 64, 8, NO_CUT);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 300; i += 1) dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, HANGING));
      await time.advance(35_000);
      const sent = new Set(receiver.eventsTo(HANGING));
      const waited = [...store.rows.values()].filter((r) => !sent.has(r.eventId));
      expect(waited).toHaveLength(300 - 32);
      for (const row of waited) {
        expect(row).toMatchObject({
          state: 'pending',
          attempts: [],
          delivery: { attempts: 0, firstAttemptAt: null },
        });
      }
      expect(dispatcher.pendingCount).toBe(300);
    });

    it('sends held-back heads as the destination frees room, earliest due first', async () => {
      const { dispatcher } = dispatcherFor(store, time, receiver, 8, 2, NO_CUT);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 5; i += 1) {
        dispatcher.add(store.save(`d${i}`, `tx-${i}`, time.now, HANGING));
        await time.advance(1);
      }
      expect(receiver.eventsTo(HANGING)).toEqual(['evt-d0', 'evt-d1']);
      await time.advance(10_000);
      expect(receiver.eventsTo(HANGING)).toEqual(['evt-d0', 'evt-d1', 'evt-d2', 'evt-d3']);
      // d0 and d1 fell due again (retry at 10 s + 3 s) after d4 (due at 4 ms): d4 goes first.
      await time.advance(10_000);
      expect(receiver.eventsTo(HANGING)).toEqual([
        'evt-d0',
        'evt-d1',
        'evt-d2',
        'evt-d3',
        'evt-d4',
        'evt-d0',
      ]);
      expect(receiver.peak.get(HANGING)).toBe(2);

      receiver.answers(HANGING);
      await time.advance(20_000);
      expect([...store.rows.values()].map((r) => r.state)).toEqual(Array(5).fill('delivered'));
      // The wait for room was no attempt: d4 was tried once, and its window began when it was.
      const d4 = store.row('d4').attempts;
      expect(d4.map((a) => [a.n, a.outcome])).toEqual([
        [1, { error: 'timeout' }],
        [2, { statusCode: 200 }],
      ]);
      expect(d4[0].firstAttemptAt).toBe(d4[0].at);
      expect(d4[0].at - T0).toBeGreaterThanOrEqual(20_000);
    });

    it('never lets a destination at its share take a slot that another destination is waiting for', async () => {
      // Five slots, of which the last two are kept from a merchant holding two (the reserve): three.
      const { dispatcher } = dispatcherFor(store, time, receiver, 5, 2);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 4; i += 1) dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, HANGING));
      receiver.hold = true;
      dispatcher.add(store.save('o1', 'tx-o1', time.now, HEALTHY));
      dispatcher.add(store.save('o2', 'tx-o2', time.now, HEALTHY));
      await settle();
      // Two hanging, one healthy: the third slot went to the healthy destination, not a third hang.
      expect(receiver.eventsTo(HANGING)).toEqual(['evt-h0', 'evt-h1']);
      expect(receiver.eventsTo(HEALTHY)).toEqual(['evt-o1']);
      receiver.release();
      await settle();
      expect(receiver.eventsTo(HEALTHY)).toEqual(['evt-o1', 'evt-o2']);
      expect(receiver.eventsTo(HANGING)).toHaveLength(2);
    });

    it('gives the next free slot to a destination that waited for it, not back to one at its share', async () => {
      const SLOW = 'http://slow.test';
      // Six slots, two of them the reserve: four for the merchant alone.
      const { dispatcher } = dispatcherFor(store, time, receiver, 6, 2);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      receiver.hangs(SLOW, 10_000);
      // Two destinations at their share fill every slot the merchant may hold, and each has more due behind it.
      for (let i = 0; i < 20; i += 1) {
        dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, HANGING));
        dispatcher.add(store.save(`s${i}`, `tx-s${i}`, time.now, SLOW));
      }
      await time.advance(1000);
      dispatcher.add(store.save('o1', 'tx-o1', time.now, HEALTHY));
      await settle();
      expect(receiver.eventsTo(HEALTHY)).toEqual([]);
      // The first slot to free is the healthy destination's: it waited for it, the others' heads
      // only wait for their own share, however long ago they fell due.
      await time.advance(9000);
      expect(receiver.sent.filter((s) => s.post.url.startsWith(HEALTHY)).map((s) => s.at - T0)).toEqual([
        10_000,
      ]);
      expect(receiver.peak.get(HANGING)).toBe(2);
      expect(receiver.peak.get(SLOW)).toBe(2);
    });

    it("takes the slots shared between processes per merchant and destination: one merchant's hanging attempts leave another's to the same receiver a slot", async () => {
      // The database's slots as a map: one slot for each key.
      const held = new Set<string>();
      const slots: DestinationSlots = {
        take: async (key) => (held.has(key) ? null : (held.add(key), 1)),
        give: async (key) => void held.delete(key),
      };
      const { dispatcher } = dispatcherFor(store, time, receiver, 8, 8, NO_CUT, { slots });
      await dispatcher.start();
      receiver.hold = true;
      dispatcher.add(store.save('a1', 'tx-a1', time.now, RECEIVER, 'merchant-a'));
      dispatcher.add(store.save('a2', 'tx-a2', time.now, RECEIVER, 'merchant-a'));
      dispatcher.add(store.save('b1', 'tx-b1', time.now, RECEIVER, 'merchant-b'));
      await settle();
      // merchant-a's second waits for its own slot; merchant-b's has one of its own.
      expect(receiver.eventsTo(RECEIVER).sort()).toEqual(['evt-a1', 'evt-b1']);
      receiver.release();
      await dispatcher.stop();
    });

    it("keeps the last free slots from a merchant holding its share: another merchant's first attempts start at once", async () => {
      const VICTIM = 'https://victim.test';
      const { dispatcher } = dispatcherFor(store, time, receiver, 64, 8, NO_CUT);
      await dispatcher.start();
      // One merchant, ten destinations that hang, each with far more due than its share.
      const hanging = Array.from({ length: 10 }, (_, d) => `http://hang${d}.test`);
      for (const destination of hanging) receiver.hangs(destination, 10_000);
      for (let i = 0; i < 200; i += 1)
        dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, hanging[i % 10], 'abuser'));
      await time.advance(1000);
      // Every slot but the reserve of eight (one destination's share).
      expect(receiver.sent).toHaveLength(56);
      const arrived = time.now;
      for (let i = 0; i < 8; i += 1)
        dispatcher.add(store.save(`v${i}`, `tx-v${i}`, time.now, VICTIM, 'victim'));
      await settle();
      // All eight at once, long before any of the abuser's attempts times out and frees a slot.
      expect(receiver.sent.filter((s) => s.post.url.startsWith(VICTIM)).map((s) => s.at)).toEqual(
        Array(8).fill(arrived),
      );
      expect(receiver.eventsTo(VICTIM)).toHaveLength(8);
      expect(receiver.sent).toHaveLength(64);
    });

    it('gives a slot outside the reserve to the merchant with fewer in flight, before the next of the merchant that freed it', async () => {
      const VICTIM_A = 'https://victim-a.test';
      const VICTIM_B = 'https://victim-b.test';
      const { dispatcher } = dispatcherFor(store, time, receiver, 8, 2, NO_CUT);
      await dispatcher.start();
      const hanging = Array.from({ length: 10 }, (_, d) => `http://hang${d}.test`);
      for (const destination of hanging) receiver.hangs(destination, 10_000);
      // The abuser's first six start 1 ms apart, so they time out, and free their slots, one at a time.
      for (let i = 0; i < 40; i += 1) {
        dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, hanging[i % 10], 'abuser'));
        await time.advance(1);
      }
      await time.advance(1000);
      expect(receiver.sent).toHaveLength(6);
      // The victim's first two take the reserve at once; its next waits (it holds two now).
      receiver.hold = true;
      for (const [id, destination] of [
        ['v1', VICTIM_A],
        ['v2', VICTIM_B],
        ['v3', VICTIM_A],
      ])
        dispatcher.add(store.save(id, `tx-${id}`, time.now, destination, 'victim'));
      await settle();
      expect(receiver.sent.slice(6).map((s) => s.post.url)).toEqual([
        `${VICTIM_A}/tx-v1`,
        `${VICTIM_B}/tx-v2`,
      ]);
      // The abuser's attempts time out at 10 000, 10 001, … ms: the first two free only the reserve;
      // the third frees one more, the victim's (2 in flight against the abuser's 3), then the
      // abuser's next at the fourth.
      await time.advance(10_005 - (time.now - T0));
      expect(receiver.sent.slice(8).map((s) => [s.at - T0, new URL(s.post.url).origin])).toEqual([
        [10_002, VICTIM_A],
        [10_003, expect.stringMatching(/^http:\/\/hang\d\.test$/)],
        [10_004, expect.stringMatching(/^http:\/\/hang\d\.test$/)],
        [10_005, expect.stringMatching(/^http:\/\/hang\d\.test$/)],
      ]);
    });

    it('holds a destination that keeps timing out to one attempt in flight, and gives its share back once it answers', async () => {
      const { dispatcher } = dispatcherFor(store, time, receiver, 64, 8);
      await dispatcher.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 100; i += 1) dispatcher.add(store.save(`h${i}`, `tx-h${i}`, time.now, HANGING));
      await settle();
      expect(receiver.eventsTo(HANGING)).toHaveLength(8);
      // The first timeouts in a row start the next ones; from the CUT_AFTER_TIMEOUTS-th, one at a time.
      await time.advance(10_000);
      const afterCut = receiver.eventsTo(HANGING).length;
      expect(afterCut).toBe(8 + CUT_AFTER_TIMEOUTS - 1);
      await time.advance(20_000);
      expect(receiver.eventsTo(HANGING).length - afterCut).toBeLessThanOrEqual(2);
      // It answers: its whole share again.
      receiver.answers(HANGING);
      await time.advance(10_000);
      expect(receiver.peak.get(HANGING)).toBe(8);
      expect(receiver.eventsTo(HANGING).length).toBeGreaterThan(afterCut + 8);
    });

    it('leaves held-back deliveries pending across a stop, and sends each once after the restart', async () => {
      const first = dispatcherFor(store, time, receiver, 8, 1).dispatcher;
      await first.start();
      receiver.hangs(HANGING, 10_000);
      for (let i = 0; i < 3; i += 1) first.add(store.save(`d${i}`, `tx-${i}`, time.now, HANGING));
      await settle();
      await first.stop();
      expect([...store.rows.values()].map((r) => [r.state, r.attempts.length])).toEqual(
        Array(3).fill(['pending', 0]),
      );

      receiver.answers(HANGING);
      const second = dispatcherFor(store, time, receiver, 8, 1).dispatcher;
      await second.start();
      await settle();
      // Due at the same time, they go in no particular order among themselves.
      expect(receiver.eventsTo(HANGING).sort()).toEqual(['evt-d0', 'evt-d0', 'evt-d1', 'evt-d2']);
      expect([...store.rows.values()].map((r) => [r.state, r.attempts.length])).toEqual(
        Array(3).fill(['delivered', 1]),
      );
      expect(receiver.peak.get(HANGING)).toBe(1);
    });
  });
});
