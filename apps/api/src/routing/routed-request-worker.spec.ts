import { randomUUID } from 'node:crypto';
import { MAX_PAYLOAD_BYTES } from '@tps/messaging';
import { REPLY_IN_WORD_BYTES, RoutedRequestWorker } from './routed-request-worker';
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
  const told: Array<{ id: string; reply: RoutedReply | undefined; storedThen: boolean }> = [];
  const worker = new RoutedRequestWorker(
    store,
    reply,
    (id, replied) => told.push({ id, reply: replied, storedThen: store.state === 'answered' }),
    (error) => {
      throw error;
    },
  );
  return { worker, told };
}

describe('RoutedRequestWorker', () => {
  it('tells that the reply is stored, once stored, with the reply when it is small', async () => {
    const store = new OneRequestStore(REQUEST);
    const { worker, told } = workerWith(store, () => Promise.resolve({ events: ['approved'] }));
    worker.take(REQUEST.id);
    await settled();
    expect(told).toEqual([{ id: REQUEST.id, reply: { ok: { events: ['approved'] } }, storedThen: true }]);
    expect(store.stored).toEqual({ ok: { events: ['approved'] } });
  });

  it('tells a large reply without it: its caller reads it from the store', async () => {
    const store = new OneRequestStore(REQUEST);
    const large = { events: ['x'.repeat(REPLY_IN_WORD_BYTES)] };
    const { worker, told } = workerWith(store, () => Promise.resolve(large));
    worker.take(REQUEST.id);
    await settled();
    expect(told).toEqual([{ id: REQUEST.id, reply: undefined, storedThen: true }]);
    expect(store.stored).toEqual({ ok: large });
  });

  it('tells nothing when the caller stopped waiting before the reply was stored', async () => {
    const store = new OneRequestStore(REQUEST);
    const { worker, told } = workerWith(store, () => {
      store.state = 'gone';
      return Promise.resolve({ events: [] });
    });
    worker.take(REQUEST.id);
    await settled();
    expect(told).toEqual([]);
  });

  it('a reply of the largest size told fits in a NOTIFY with its envelope', () => {
    // The envelope as the PostgreSQL port sends it: origin, sequence, topic, message.
    const reply = { ok: 'x'.repeat(REPLY_IN_WORD_BYTES - JSON.stringify({ ok: '' }).length) };
    const payload = JSON.stringify({
      o: randomUUID(),
      n: Number.MAX_SAFE_INTEGER,
      t: 'route.answered',
      m: { id: randomUUID(), reply },
    });
    expect(Buffer.byteLength(JSON.stringify(reply))).toBe(REPLY_IN_WORD_BYTES);
    expect(Buffer.byteLength(payload)).toBeLessThan(MAX_PAYLOAD_BYTES);
  });
});
