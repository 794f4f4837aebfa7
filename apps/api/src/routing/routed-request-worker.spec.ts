import { randomUUID } from 'node:crypto';
import { ContractError } from '@tps/domain';
import { RoutedRequestWorker } from './routed-request-worker';
import type { Abandoned, HandedRequest, RoutedReply, RoutedRequestStore } from './routing-ports';

/** One request handed to this replica, in memory; `gone` once its caller stopped waiting. */
class OneRequestStore implements RoutedRequestStore {
  state: 'pending' | 'taken' | 'answered' | 'gone' = 'pending';
  stored: RoutedReply | undefined;
  constructor(private readonly request: HandedRequest) {}

  hand(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
  takeReply(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  abandon(): Promise<Abandoned> {
    return Promise.resolve({ state: 'gone' });
  }
  forget(): Promise<void> {
    return Promise.resolve();
  }
  claim(): Promise<HandedRequest[]> {
    if (this.state !== 'pending') return Promise.resolve([]);
    this.state = 'taken';
    return Promise.resolve([this.request]);
  }
  answer(_id: string, reply: RoutedReply): Promise<boolean> {
    if (this.state !== 'taken') return Promise.resolve(false);
    this.state = 'answered';
    this.stored = reply;
    return Promise.resolve(true);
  }
}

const REQUEST: HandedRequest = {
  id: randomUUID(),
  link: 'uplink',
  serial: 'SIM1',
  request: { type: 'operation' },
  timeoutMs: 5000,
};

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function workerWith(store: OneRequestStore, reply: () => Promise<unknown>) {
  const errors: unknown[] = [];
  const worker = new RoutedRequestWorker(store, reply, (error) => errors.push(error));
  return { worker, errors };
}

describe('RoutedRequestWorker', () => {
  it("stores the link's reply for the replica that waits for it", async () => {
    const store = new OneRequestStore(REQUEST);
    const { worker, errors } = workerWith(store, () => Promise.resolve({ events: ['approved'] }));
    worker.take(REQUEST.id);
    await settled();
    expect(store.state).toBe('answered');
    expect(store.stored).toEqual({ ok: { events: ['approved'] } });
    expect(errors).toEqual([]);
  });

  it("stores the contract's refusal as it is, and any other failure after sending as 504 TER-002", async () => {
    const refused = new OneRequestStore(REQUEST);
    workerWith(refused, () =>
      Promise.reject(new ContractError('TER-001', 'terminal SIM1 is offline')),
    ).worker.take(REQUEST.id);
    const failed = new OneRequestStore(REQUEST);
    workerWith(failed, () => Promise.reject(new Error('socket hang up'))).worker.take(REQUEST.id);
    await settled();
    expect(refused.stored).toMatchObject({ error: { code: 'TER-001' } });
    expect(failed.stored).toMatchObject({ error: { code: 'TER-002' } });
  });

  it('stores nothing when the caller stopped waiting before the reply came', async () => {
    const store = new OneRequestStore(REQUEST);
    const { worker, errors } = workerWith(store, () => {
      store.state = 'gone';
      return Promise.resolve({ events: [] });
    });
    worker.take(REQUEST.id);
    await settled();
    expect(store.stored).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('counts a request as in flight from its claim until its reply is stored', async () => {
    const store = new OneRequestStore(REQUEST);
    let answer: (reply: unknown) => void = () => undefined;
    const { worker } = workerWith(store, () => new Promise((resolve) => (answer = resolve)));
    expect(worker.inFlight).toBe(0);
    worker.take(REQUEST.id);
    expect(worker.inFlight).toBe(1);
    await settled();
    expect(store.state).toBe('taken');
    expect(worker.inFlight).toBe(1);
    answer({ events: [] });
    await settled();
    expect(store.state).toBe('answered');
    expect(worker.inFlight).toBe(0);
  });
});
