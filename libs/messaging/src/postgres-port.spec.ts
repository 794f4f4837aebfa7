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

  /** A NOTIFY that some other statement sent (not the port's own). */
  say(payload: string): void {
    for (const session of [...this.sessions]) session.onPayload(payload);
  }

  /** Every listening session breaks, as when the server restarts. */
  breakAll(): void {
    for (const session of [...this.sessions]) {
      this.sessions.delete(session);
      session.onLost(new Error('connection terminated'));
    }
  }
}

/**
 * Lets a publication reach the other ports: the port sends on the next turn and the fake server
 * answers on the one after (each a setImmediate), which a busy machine can hold past a short timer.
 */
async function settle(ms = 5): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function portOn(channel: FakeChannel): Promise<PostgresMessagePort<Topics>> {
  const port = new PostgresMessagePort<Topics>(channel.connector(), {
    crossing: ['thing.stored'],
    onError: () => undefined,
    relistenMs: 5,
  });
  await port.start();
  return port;
}

describe('PostgresMessagePort, topics on demand', () => {
  let now = 0;
  let ports: Array<PostgresMessagePort<Topics>> = [];
  afterEach(async () => {
    await Promise.all(ports.map((port) => port.stop()));
    ports = [];
  });

  /** Ports whose words on wants last 3 s, and whose first 3 s (unsure of them) are over. */
  async function onDemand(channel: FakeChannel, count: number): Promise<Array<PostgresMessagePort<Topics>>> {
    now = 0;
    for (let i = 0; i < count; i++) {
      const port = new PostgresMessagePort<Topics>(channel.connector(), {
        crossing: ['thing.stored'],
        onDemand: ['thing.stored'],
        onError: () => undefined,
        relistenMs: 5,
        wantsEveryMs: 1_000,
        now: () => now,
      });
      await port.start();
      ports.push(port);
    }
    now = 3_000;
    return [...ports];
  }

  const things = (channel: FakeChannel): string[] =>
    channel.statements
      .flat()
      .filter((payload) => (JSON.parse(payload) as { t: string }).t === 'thing.stored');

  it('sends a topic on demand only while another process watches it, and tells that watcher', async () => {
    const channel = new FakeChannel();
    const [a, b] = await onDemand(channel, 2);
    a.publish('thing.stored', { id: 'unwatched' });
    await settle();
    expect(things(channel)).toEqual([]);

    const seen: string[] = [];
    const stop = b.subscribe('thing.stored', ({ id }) => seen.push(id), 'cluster');
    await settle();
    a.publish('thing.stored', { id: 'watched' });
    await settle();
    expect(seen).toEqual(['watched']);

    stop();
    await settle();
    a.publish('thing.stored', { id: 'no longer' });
    await settle();
    expect(seen).toEqual(['watched']);
    expect(things(channel)).toHaveLength(1);
  });

  it("sends everything while unsure of the others' words: at start, and after its listener broke", async () => {
    const channel = new FakeChannel();
    const [a] = await onDemand(channel, 1);
    now = 0;
    a.publish('thing.stored', { id: 'at start' });
    now = 3_000;
    channel.breakAll();
    await settle(30);
    a.publish('thing.stored', { id: 'after the gap' });
    now = 6_000;
    a.publish('thing.stored', { id: 'sure again' });
    await settle();
    expect(things(channel).map((payload) => (JSON.parse(payload) as { m: { id: string } }).m.id)).toEqual([
      'at start',
      'after the gap',
    ]);
  });

  it('stops sending to a watcher whose word ran out (a process that died)', async () => {
    const channel = new FakeChannel();
    const [a, b] = await onDemand(channel, 2);
    b.subscribe('thing.stored', () => undefined, 'cluster');
    await settle();
    // b dies without a word: its last one lasts 3 s.
    await b.stop();
    a.publish('thing.stored', { id: 'while its word lasts' });
    now += 3_000;
    a.publish('thing.stored', { id: 'after' });
    await settle();
    expect(things(channel)).toHaveLength(1);
  });
});

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

  it("a word that a statement of the caller's own sends is heard by the other processes only, each unique", async () => {
    const { a, b, channel } = await two();
    const seen: string[] = [];
    a.subscribe('thing.stored', ({ id }) => seen.push(`a ${id}`), 'cluster');
    b.subscribe('thing.stored', ({ id }) => seen.push(`b ${id}`), 'cluster');
    const words = ['1', '2'].map((id) => `${a.wordStart('thing.stored')}${JSON.stringify({ id })}}`);
    words.forEach((word) => channel.say(word));
    expect(seen).toEqual(['b 1', 'b 2']);
    expect(new Set(words).size).toBe(2);
    expect(channel.statements).toEqual([]);
  });

  it('skips its own words without parsing them: a reply told with its word is kilobytes long', async () => {
    const { a, b, channel } = await two();
    const seen: string[] = [];
    b.subscribe('thing.stored', ({ id }) => seen.push(id), 'cluster');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      channel.say(`${a.wordStart('thing.stored')}${JSON.stringify({ id: 'x'.repeat(4000) })}}`);
      // Heard by both processes: parsed by b only.
      expect(parse).toHaveBeenCalledTimes(1);
      expect(seen).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('publishes nothing across once stopped', async () => {
    const { a, channel } = await two();
    await a.stop();
    a.publish('thing.stored', { id: '1' });
    await settle();
    expect(channel.statements).toEqual([]);
  });
});
