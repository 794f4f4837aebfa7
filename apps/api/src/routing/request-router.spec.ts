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
  constructor(private readonly holders: Record<string, string>) {}

  hand(id: string, _link: unknown, key: string): Promise<string | undefined> {
    const replica = this.holders[key];
    if (replica !== undefined) this.rows.set(id, { replica, state: 'pending' });
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
  claim(): Promise<HandedRequest[]> {
    return Promise.resolve([]);
  }
  answer(id: string, reply: RoutedReply): Promise<void> {
    const row = this.rows.get(id);
    if (row !== undefined) Object.assign(row, { state: 'answered', reply });
    return Promise.resolve();
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

function signalsOf() {
  const answered = new Set<(id: string) => void>();
  const gaps = new Set<() => void>();
  const handed: Array<{ replica: string; id: string }> = [];
  const signals: RoutingSignals = {
    handed: (replica, id) => handed.push({ replica, id }),
    onAnswered: (handler) => (answered.add(handler), () => answered.delete(handler)),
    onGap: (handler) => (gaps.add(handler), () => gaps.delete(handler)),
  };
  return {
    signals,
    handed,
    tellAnswered: (id: string) => answered.forEach((handler) => handler(id)),
    tellGap: () => gaps.forEach((handler) => handler()),
  };
}

const OPTIONS = { pollMs: 250, graceMs: 1000 };

describe('RequestRouter', () => {
  it('routes nothing when no other replica holds the link', async () => {
    const { signals, handed } = signalsOf();
    const router = new RequestRouter(new MemoryStore({}), signals, new SteppingTimer(), OPTIONS);
    await expect(
      router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000),
    ).resolves.toBeUndefined();
    expect(handed).toEqual([]);
  });

  it("answers the holder's stored reply once told it is there", async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed, tellAnswered } = signalsOf();
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
    const { signals, handed } = signalsOf();
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
    const { signals, handed } = signalsOf();
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    store.rows.get(handed[0].id)!.state = 'taken';
    await expect(routed).rejects.toMatchObject({ code: 'TER-002' });
    expect(store.rows.size).toBe(0);
  });

  it('past the reply timeout, a request its holder never took is 503 TER-001: nothing was sent', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals } = signalsOf();
    const router = new RequestRouter(store, signals, new SteppingTimer(), OPTIONS);
    await expect(router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000)).rejects.toMatchObject({
      code: 'TER-001',
    });
    expect(store.rows.size).toBe(0);
  });

  it('a request taken by a replica that died is 504 TER-002 at once, not at the timeout', async () => {
    const store = new MemoryStore({ SIM1: 'b' });
    const { signals, handed } = signalsOf();
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
    const { signals, handed, tellGap } = signalsOf();
    // A timer that never fires by itself: only a wake-up can move the waiter on.
    const frozen: RouterTimer = {
      now: () => 0,
      sleep: (_ms, wake) => new Promise((resolve) => wake(resolve)),
    };
    const router = new RequestRouter(store, signals, frozen, OPTIONS);
    const routed = router.route('uplink', 'SIM1', 'SIM1', { type: 'operation' }, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    await store.answer(handed[0].id, { ok: 'done' });
    tellGap();
    await expect(routed).resolves.toEqual({ reply: 'done' });
  });
});
