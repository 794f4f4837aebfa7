import { PostgresMessagePort, type ListenSession, type NotifyConnector } from './postgres-port';

interface Topics {
  'thing.stored': { id: string };
  'secret.staged': { secret: string };
}

/** One database's channel in memory: every listening session hears every notification. */
class FakeChannel {
  readonly sessions = new Set<{ onPayload: (payload: string) => void; onLost: (error: unknown) => void }>();
  readonly statements: string[][] = [];
  refuseListen = false;

  connector(): NotifyConnector {
    return {
      listen: (onPayload, onLost): Promise<ListenSession> => {
        if (this.refuseListen) return Promise.reject(new Error('server down'));
        const session = { onPayload, onLost };
        this.sessions.add(session);
        return Promise.resolve({ close: () => Promise.resolve(void this.sessions.delete(session)) });
      },
      // As a server does: the statement takes a round trip, and listeners hear it after.
      notify: async (payloads) => {
        this.statements.push(payloads);
        await new Promise((resolve) => setImmediate(resolve));
        for (const payload of payloads) for (const session of [...this.sessions]) session.onPayload(payload);
      },
      close: () => Promise.resolve(),
    };
  }

  /** Every listening session breaks, as when the server restarts. */
  breakAll(): void {
    for (const session of [...this.sessions]) {
      this.sessions.delete(session);
      session.onLost(new Error('connection terminated'));
    }
  }
}

const settle = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function portOn(channel: FakeChannel): Promise<PostgresMessagePort<Topics>> {
  const port = new PostgresMessagePort<Topics>(channel.connector(), {
    crossing: ['thing.stored'],
    onError: () => undefined,
    relistenMs: 5,
  });
  await port.start();
  return port;
}

describe('PostgresMessagePort', () => {
  let ports: Array<PostgresMessagePort<Topics>> = [];
  afterEach(async () => {
    await Promise.all(ports.map((port) => port.stop()));
    ports = [];
  });

  async function two(channel = new FakeChannel()) {
    const a = await portOn(channel);
    const b = await portOn(channel);
    ports.push(a, b);
    return { a, b, channel };
  }

  it("tells this process's subscribers at once, and another process's subscribers of scope cluster", async () => {
    const { a, b } = await two();
    const seen: string[] = [];
    a.subscribe('thing.stored', ({ id }) => seen.push(`a process ${id}`));
    a.subscribe('thing.stored', ({ id }) => seen.push(`a cluster ${id}`), 'cluster');
    b.subscribe('thing.stored', ({ id }) => seen.push(`b process ${id}`));
    b.subscribe('thing.stored', ({ id }) => seen.push(`b cluster ${id}`), 'cluster');
    a.publish('thing.stored', { id: '1' });
    expect(seen).toEqual(['a process 1', 'a cluster 1']);
    await settle();
    expect(seen).toEqual(['a process 1', 'a cluster 1', 'b cluster 1']);
  });

  it('keeps a topic that does not cross within its process', async () => {
    const { a, b, channel } = await two();
    const seen: string[] = [];
    b.subscribe('secret.staged', ({ secret }) => seen.push(secret), 'cluster');
    a.publish('secret.staged', { secret: 'whsec' });
    await settle();
    expect(seen).toEqual([]);
    expect(channel.statements).toEqual([]);
  });

  it('sends what one turn publishes in one NOTIFY, and what is published during it in the next, in order, each payload unique', async () => {
    const { a, b, channel } = await two();
    const seen: string[] = [];
    b.subscribe('thing.stored', ({ id }) => seen.push(id), 'cluster');
    for (const id of ['1', '2', '3']) a.publish('thing.stored', { id });
    // A later turn, while the first NOTIFY is on its way (it takes a turn of its own).
    await new Promise((resolve) => setImmediate(resolve));
    expect(channel.statements.map((batch) => batch.length)).toEqual([3]);
    for (const id of ['4', '5']) a.publish('thing.stored', { id });
    await settle();
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
    expect(channel.statements.map((batch) => batch.length)).toEqual([3, 2]);
    expect(new Set(channel.statements.flat()).size).toBe(5);
  });

  it('tells a gap once it listens again after its session broke, and hears new messages', async () => {
    const { a, b, channel } = await two();
    const gaps: string[] = [];
    const seen: string[] = [];
    b.onGap(() => gaps.push('b'));
    b.subscribe('thing.stored', ({ id }) => seen.push(id), 'cluster');
    channel.refuseListen = true;
    channel.breakAll();
    a.publish('thing.stored', { id: 'lost' });
    await settle(30);
    expect(gaps).toEqual([]);
    channel.refuseListen = false;
    await settle(30);
    expect(gaps).toEqual(['b']);
    a.publish('thing.stored', { id: 'after' });
    await settle();
    expect(seen).toEqual(['after']);
  });

  it('publishes nothing across once stopped', async () => {
    const { a, channel } = await two();
    await a.stop();
    a.publish('thing.stored', { id: '1' });
    await settle();
    expect(channel.statements).toEqual([]);
  });
});
