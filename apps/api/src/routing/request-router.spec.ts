import { ContractError } from '@tps/domain';
import { RequestRouter, type RouterTimer, type RoutingSignals } from './request-router';
import type { Abandoned, HandedRequest, RoutedReply, RoutedRequestStore } from './routing-ports';

interface Row {
  replica: string;
  state: 'pending' | 'taken' | 'answered';
  reply?: RoutedReply;
}

/** The routed requests in memory: `holders` says which replica holds which key's link. */
class MemoryStore implements RoutedRequestStore {
  readonly rows = new Map<string, Row>();
  reads = 0;
  /** Each removal of taken rows, by the ids it removed. */
  readonly forgotten: string[][] = [];
  constructor(private readonly holders: Record<string, string>) {}

  /** The requests stored, each for the replica its statement told. */
  readonly handed: Array<{ replica: string; id: string }> = [];
  hand(id: string, _link: unknown, key: string): Promise<string | undefined> {
    const replica = this.holders[key];
    if (replica !== undefined) {
      this.rows.set(id, { replica, state: 'pending' });
      this.handed.push({ replica, id });
    }
    return Promise.resolve(replica);
  }
  readonly dead = new Set<string>();
  takeReply(id: string): Promise<RoutedReply | 'holder gone' | undefined> {
    this.reads++;
    const row = this.rows.get(id);
    if (row !== undefined && row.state !== 'answered' && this.dead.has(row.replica)) {
      return Promise.resolve('holder gone');
    }
    if (row?.state !== 'answered') return Promise.resolve(undefined);
    this.rows.delete(id);
    return Promise.resolve(row.reply);
  }
  abandon(id: string): Promise<Abandoned> {
    const row = this.rows.get(id);
    this.rows.delete(id);
    if (row === undefined) return Promise.resolve({ state: 'gone' });
    if (row.state === 'answered' && row.reply !== undefined)
      return Promise.resolve({ state: 'answered', reply: row.reply });
    return Promise.resolve({ state: row.state === 'pending' ? 'pending' : 'taken' });
  }
  forget(ids: string[]): Promise<void> {
    this.forgotten.push(ids);
    for (const id of ids) this.rows.delete(id);
    return Promise.resolve();
  }
  claim(): Promise<HandedRequest[]> {
    return Promise.resolve([]);
  }
  answer(id: string, reply: RoutedReply): Promise<boolean> {
    const row = this.rows.get(id);
    if (row !== undefined) Object.assign(row, { state: 'answered', reply });
    return Promise.resolve(row !== undefined);
  }
}

/** Time that moves only when every waiter sleeps: each sleep jumps to its end at once. */
class SteppingTimer implements RouterTimer {
  private at = 0;
  now(): number {
    return this.at;
  }
  sleep(ms: number, wake: (resume: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      wake(resolve);
      setImmediate(() => {
        this.at += ms;
        resolve();
      });
    });
  }
}

/** Time that moves only when a spec moves it: each sleep ends once its time has come, or when woken. */
class ManualTimer implements RouterTimer {
  private at = 0;
  private sleepers: Array<{ until: number; resolve: () => void }> = [];
  now(): number {
    return this.at;
  }
  sleep(ms: number, wake: (resume: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      wake(resolve);
      this.sleepers.push({ until: this.at + ms, resolve });
    });
  }
  async advance(ms: number): Promise<void> {
    this.at += ms;
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.at);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.at);
    due.forEach((sleeper) => sleeper.resolve());
    for (let i = 0; i < 5; i++) await turn();
  }
}

function signalsOf(store: MemoryStore) {
  const answered = new Set<(id: string, reply?: RoutedReply) => void>();
  const gaps = new Set<() => void>();
  const signals: RoutingSignals = {
    onAnswered: (handler: (id: string, reply?: RoutedReply) => void) => (
      answered.add(handler),
      () => answered.delete(handler)
    ),
    onGap: (handler) => (gaps.add(handler), () => gaps.delete(handler)),
  };
  return {
    signals,
    handed: store.handed,
    tellAnswered: (id: string, reply?: RoutedReply) => answered.forEach((handler) => handler(id, reply)),
    tellGap: () => gaps.forEach((handler) => handler()),
  };
}

const OPTIONS = { pollMs: 1000, graceMs: 1000, forgetMs: 1000 };

/** A timer that never fires by itself: only a wake-up moves a waiter on (and no removal is flushed). */
const FROZEN: RouterTimer = {
  now: () => 0,
  sleep: (_ms, wake) => new Promise((resolve) => wake(resolve)),
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('RequestRouter', () => {
  it('routes nothing when no other replica holds the link', async () => {
    const store = new MemoryStore({});
    const { signals, handed } = signalsOf(store);
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    await expect(
      router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000),
    ).resolves.toBeUndefined();
    expect(handed).toEqual([]);
  });

  it('tells of each request it hands over, by link, and of none it keeps', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellAnswered } = signalsOf(store);
    const links: string[] = [];
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS, undefined, (link) =>
      links.push(link),
    );
    await expect(
      router.route('uplink', 'SIM2', 'SIM2', { type: 'operation' }, 5000),
    ).resolves.toBeUndefined();
    expect(links).toEqual([]);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    await store.answer(handed[0].id, { ok: { events: [] } });
    tellAnswered(handed[0].id);
    await routed;
    expect(links).toEqual(['uplink']);
  });

  it("answers the holder's stored reply once told it is there", async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellAnswered } = signalsOf(store);
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(handed).toEqual([{ replica: 'b', id: expect.any(String) }]);
    await store.answer(handed[0].id, { ok: { events: [] } });
    tellAnswered(handed[0].id);
    await expect(routed).resolves.toEqual({ reply: { events: [] } });
    expect(store.rows.size).toBe(0);
  });

  it("raises the holder's stored refusal as the contract's error", async () => {
    const store = new MemoryStore({ fleet: 'b' });
    const { signals, handed } = signalsOf(store);
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    const routed = router.route('control', 'fleet', 'SIM1', { type: 'terminal' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    await store.answer(handed[0].id, {
      error: new ContractError('TER-001', 'terminal SIM1 is offline').toBody(),
    });
    // No word: the poll finds it.
    await expect(routed).rejects.toMatchObject({ code: 'TER-001', message: 'terminal SIM1 is offline' });
  });

  it('past the reply timeout, a request its holder took is 504 TER-002: the outcome is unknown', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed } = signalsOf(store);
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    store.rows.get(handed[0].id)!.state = 'taken';
    await expect(routed).rejects.toMatchObject({ code: 'TER-002' });
    expect(store.rows.size).toBe(0);
  });

  it('past the reply timeout, a request its holder never took is 503 TER-001: nothing was sent', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals } = signalsOf(store);
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    await expect(router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000)).rejects.toMatchObject({
      code: 'TER-001',
    });
    expect(store.rows.size).toBe(0);
  });

  it('a request taken by a replica that died is 504 TER-002 at once, not at the timeout', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed } = signalsOf(store);
    const timer = new SteppingTimer();
    const router = new RequestRouter(store, signals, timer, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    store.rows.get(handed[0].id)!.state = 'taken';
    store.dead.add('b');
    await expect(routed).rejects.toMatchObject({ code: 'TER-002' });
    expect(timer.now()).toBeLessThan(60_000);
  });

  it('reads the store at once after a gap, without waiting for its poll', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellGap } = signalsOf(store);
    const router = new RequestRouter(store, signals, FROZEN, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    await store.answer(handed[0].id, { ok: 'done' });
    tellGap();
    await expect(routed).resolves.toEqual({ reply: 'done' });
  });

  it('takes a reply that comes with its word without reading the store; the rows go later, together', async () => {
    const store = new MemoryStore({ SIM1: 'b', SIM2: 'b' });
    const { signals, handed, tellAnswered } = signalsOf(store);
    const timer = new ManualTimer();
    const router = new RequestRouter(store, signals, timer, OPTIONS);
    const first = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    const second = router.route('uplink', 'SIM2', 'SIM2', { type: 'operation' }, 5000);
    await turn();
    for (const [n, { id }] of handed.entries()) {
      await store.answer(id, { ok: n });
      tellAnswered(id, { ok: n });
    }
    await expect(first).resolves.toEqual({ reply: 0 });
    await expect(second).resolves.toEqual({ reply: 1 });
    expect(store.reads).toBe(0);
    expect(store.forgotten).toEqual([]);
    await timer.advance(OPTIONS.forgetMs);
    expect(store.forgotten).toEqual([handed.map(({ id }) => id)]);
    expect(store.rows.size).toBe(0);
  });

  it('reads nothing before the word; a word without the reply is read at once', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellAnswered } = signalsOf(store);
    const timer = new ManualTimer();
    const router = new RequestRouter(store, signals, timer, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await timer.advance(OPTIONS.pollMs - 1);
    expect(store.reads).toBe(0);
    await store.answer(handed[0].id, { ok: 'large' });
    tellAnswered(handed[0].id);
    await expect(routed).resolves.toEqual({ reply: 'large' });
    expect(store.reads).toBe(1);
    expect(store.rows.size).toBe(0);
  });

  it('a word that was lost: the reply is read after pollMs of silence', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed } = signalsOf(store);
    const timer = new ManualTimer();
    const router = new RequestRouter(store, signals, timer, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await turn();
    await store.answer(handed[0].id, { ok: 'stored' });
    await timer.advance(OPTIONS.pollMs - 1);
    expect(store.reads).toBe(0);
    await timer.advance(1);
    await expect(routed).resolves.toEqual({ reply: 'stored' });
    expect(store.reads).toBe(1);
  });

  it('hears a word that comes back before the store has answered the hand-over', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, tellAnswered } = signalsOf(store);
    let handOver: (() => void) | undefined;
    const hand = store.hand.bind(store);
    store.hand = (id, ...rest) => {
      // The holder took it (a poll found it) and its word came before the insert's answer did.
      tellAnswered(id, { ok: 'quick' });
      return new Promise((resolve) => (handOver = () => resolve(hand(id, ...rest))));
    };
    const router = new RequestRouter(store, signals, FROZEN, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await turn();
    handOver?.();
    await expect(routed).resolves.toEqual({ reply: 'quick' });
    expect(store.reads).toBe(0);
  });

  it('removes the rows still queued when it stops', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellAnswered } = signalsOf(store);
    const router = new RequestRouter(store, signals, FROZEN, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await turn();
    await store.answer(handed[0].id, { ok: 'done' });
    tellAnswered(handed[0].id, { ok: 'done' });
    await routed;
    expect(store.rows.size).toBe(1);
    await router.stop();
    expect(store.forgotten).toEqual([[handed[0].id]]);
    expect(store.rows.size).toBe(0);
    // A waiter that ends after the stop leaves its row to the sweep: the pool is closing.
    const late = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await turn();
    await store.answer(handed[1].id, { ok: 'late' });
    tellAnswered(handed[1].id, { ok: 'late' });
    await expect(late).resolves.toEqual({ reply: 'late' });
    await router.stop();
    expect(store.forgotten).toEqual([[handed[0].id]]);
  });
});
