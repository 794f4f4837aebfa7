import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { REPO_ROOT, TEST_POSTGRES_URL } from '@tps/testing';
import { CpuMeter } from './lib/cpu-meter';
import { FLOOR_CHANNEL, type HolderKind } from './lib/handoff-words';
import { withOwnDatabase } from './lib/own-database';
import { PgBackends } from './lib/pg-backends';

/** A holder's kind, or `pacing`: the asker's pacing alone, with no hand-off (what every run includes). */
export type FloorKind = HolderKind | 'pacing';

/** One load of bare hand-offs of one kind: paced at `rate` a second, or a closed loop (`rate` null). */
export interface FloorRun {
  kind: FloorKind;
  rate: number | null;
  seconds: number;
  handOffs: number;
  /** CPU per hand-off, ms: the asking process, the holding one, the PostgreSQL backends, all. */
  askerMs: number;
  holderMs: number;
  postgresMs: number;
  totalMs: number;
  /** What the same processes spent idle, % of a core, taken off. */
  idlePercent: number;
}

export interface HandOffFloor {
  /** Bytes of the reply that travels back in the word (or on the connection). */
  replyBytes: number;
  waiters: number;
  runs: FloorRun[];
}

/** Requests in flight at once, as terminals in the routed phase. */
const WAITERS = 16;
const WARMUP_SECONDS = 3;
/** An answer that never comes (a lost NOTIFY) ends the run rather than hanging it. */
const ANSWER_TIMEOUT_MS = 10_000;
const HOLDER_START_MS = 10_000;
const REQUEST = '{"type":"authorize","amount":1234,"currency":"EUR"}';

/**
 * A sync charge's reply as a terminal sends it (its four events, the order, the outcome), taken
 * from a routed charge: its size, and how well it compresses when stored, are a real reply's.
 */
const replyJson = (): string =>
  JSON.stringify(JSON.parse(readFileSync(join(REPO_ROOT, 'bench/lib/sync-charge-reply.json'), 'utf8')));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The asking end: one hand-off, answered. */
interface Asker {
  one(): Promise<void>;
  close(): Promise<void>;
}

/** Askers waiting for their answer, by request id, each for at most ANSWER_TIMEOUT_MS. */
class Waiting {
  private readonly waiters = new Map<string, () => void>();

  async until(id: string, send: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<void>((resolve, reject) => {
      this.waiters.set(id, resolve);
      timer = setTimeout(
        () => reject(new Error(`no answer to hand-off ${id} within ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      );
    });
    try {
      await send();
      await answered;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  answered(answer: string): void {
    const { id } = JSON.parse(answer) as { id: string };
    this.waiters.get(id)?.();
  }
}

/**
 * The asker through PostgreSQL. `stored`: stores a request and sends its word in one statement,
 * as the service does; the rows go in one `DELETE` a second. `words`: the request in the word
 * alone. Either way the holder's word carries the reply. Unlogged table, prepared statements.
 */
class PostgresAsker implements Asker {
  private readonly waiting = new Waiting();
  private done: string[] = [];
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly kind: 'stored' | 'words',
    private readonly pool: Pool,
    private readonly ears: Client,
  ) {}

  static async open(kind: 'stored' | 'words', url: string): Promise<PostgresAsker> {
    const pool = new Pool({ connectionString: url, max: 4 });
    const ears = new Client({ connectionString: url });
    // A connection the server ends (its database dropped after a failed run) fails the queries on
    // it, which end the run with their reason; unheard, its error would end the whole benchmark.
    pool.on('error', () => undefined);
    ears.on('error', () => undefined);
    const asker = new PostgresAsker(kind, pool, ears);
    try {
      await ears.connect();
      await ears.query(`LISTEN ${FLOOR_CHANNEL}`);
    } catch (error) {
      await asker.close();
      throw error;
    }
    ears.on('notification', ({ payload }) => {
      if (payload?.startsWith('a')) asker.waiting.answered(payload.slice(1));
    });
    // Rows a failed sweep leaves stay until the database is dropped, after the run.
    if (kind === 'stored') asker.sweeper = setInterval(() => void asker.sweep().catch(() => undefined), 1000);
    return asker;
  }

  async one(): Promise<void> {
    const id = randomUUID();
    await this.waiting.until(id, () =>
      this.kind === 'stored'
        ? this.pool.query({
            name: 'hand',
            text: `WITH handed AS (INSERT INTO routed (id, state, request) VALUES ($1, 'pending', $2) RETURNING id)
              SELECT pg_notify('${FLOOR_CHANNEL}', 'h' || id) FROM handed`,
            values: [id, REQUEST],
          })
        : this.pool.query({
            name: 'hand',
            text: `SELECT pg_notify('${FLOOR_CHANNEL}', $1)`,
            values: [`h{"id":${JSON.stringify(id)},"request":${REQUEST}}`],
          }),
    );
    if (this.kind === 'stored') this.done.push(id);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([this.pool.end(), this.ears.end()]);
  }

  private async sweep(): Promise<void> {
    const ids = this.done;
    this.done = [];
    if (ids.length > 0)
      await this.pool.query({ name: 'sweep', text: 'DELETE FROM routed WHERE id = ANY($1)', values: [ids] });
  }
}

/** The asker over a TCP connection to the holder: a newline-ended request out, its answer back. */
class DirectAsker implements Asker {
  private readonly waiting = new Waiting();
  private pending = '';

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      this.pending += chunk.toString('utf8');
      let end: number;
      while ((end = this.pending.indexOf('\n')) >= 0) {
        this.waiting.answered(this.pending.slice(0, end));
        this.pending = this.pending.slice(end + 1);
      }
    });
  }

  static open(port: number): Promise<DirectAsker> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', reject);
      socket.once('connect', () => {
        // A connection lost later leaves its askers to time out, which ends the run.
        socket.off('error', reject).on('error', () => undefined);
        resolve(new DirectAsker(socket));
      });
    });
  }

  one(): Promise<void> {
    const id = randomUUID();
    return this.waiting.until(
      id,
      () =>
        new Promise<void>((resolve, reject) =>
          this.socket.write(`{"id":${JSON.stringify(id)},"request":${REQUEST}}\n`, (error) =>
            error ? reject(error) : resolve(),
          ),
        ),
    );
  }

  close(): Promise<void> {
    this.socket.destroy();
    return Promise.resolve();
  }
}

const pacingAlone: Asker = { one: () => Promise.resolve(), close: () => Promise.resolve() };

/** The holder's process (handoff-holder.ts), once it listens. */
interface Holder {
  pid: number | undefined;
  port: number | undefined;
  stop(): Promise<void>;
}

function startHolder(kind: HolderKind, url: string, reply: string): Promise<Holder> {
  const child: ChildProcess = fork(join(__dirname, 'handoff-holder.js'), [kind, url, reply], {
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise<Holder>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} holder did not start`)), HOLDER_START_MS);
    child.once('message', (message: { port?: number }) => {
      clearTimeout(timer);
      resolve({ pid: child.pid, port: message.port, stop });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} holder ended before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
}

/** Runs hand-offs for `seconds`: WAITERS at once, each starting its next every WAITERS/rate s. */
async function load(asker: Asker, rate: number | null, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: WAITERS }, async (_, i) => {
      if (rate !== null) await sleep((i * 1000) / rate);
      while (Date.now() < end) {
        const started = Date.now();
        await asker.one();
        count++;
        if (rate !== null) await sleep(Math.max(0, (WAITERS * 1000) / rate - (Date.now() - started)));
      }
    }),
  );
  return count;
}

/**
 * CPU per hand-off of one kind at each rate: this process (the asker), the holder's and the
 * database's backends (`backends`, when the kind goes through PostgreSQL), less what the same
 * processes spend idle, measured first for as long.
 */
async function measureKind(
  kind: FloorKind,
  asker: Asker,
  holderPid: number | undefined,
  backends: PgBackends | undefined,
  rates: Array<number | null>,
  seconds: number,
): Promise<FloorRun[]> {
  const meter = await CpuMeter.start(
    { asker: process.pid, holder: holderPid },
    backends ? { postgres: () => backends.pids() } : {},
  );
  try {
    const spent = async (): Promise<{ asker: number; holder: number; postgres: number }> => {
      const reading = await meter.reading();
      return { asker: reading.asker, holder: reading.holder, postgres: reading.postgres ?? 0 };
    };
    const idleBefore = await spent();
    const idleStarted = Date.now();
    await sleep(seconds * 1000);
    const idleAfter = await spent();
    const idleSeconds = (Date.now() - idleStarted) / 1000;
    const idlePerSecond = {
      asker: (idleAfter.asker - idleBefore.asker) / idleSeconds,
      holder: (idleAfter.holder - idleBefore.holder) / idleSeconds,
      postgres: (idleAfter.postgres - idleBefore.postgres) / idleSeconds,
    };
    const idlePercent = (idlePerSecond.asker + idlePerSecond.holder + idlePerSecond.postgres) / 10;
    const runs: FloorRun[] = [];
    for (const rate of rates) {
      await load(asker, rate, WARMUP_SECONDS);
      const before = await spent();
      const started = Date.now();
      const handOffs = await load(asker, rate, seconds);
      const after = await spent();
      const elapsed = (Date.now() - started) / 1000;
      const per = (group: 'asker' | 'holder' | 'postgres'): number =>
        (after[group] - before[group] - idlePerSecond[group] * elapsed) / handOffs;
      const [askerMs, holderMs, postgresMs] = [per('asker'), per('holder'), per('postgres')];
      runs.push({
        kind,
        rate,
        seconds: elapsed,
        handOffs,
        askerMs,
        holderMs,
        postgresMs,
        totalMs: askerMs + holderMs + postgresMs,
        idlePercent,
      });
    }
    return runs;
  } finally {
    meter.stop();
  }
}

/** One kind measured with its holder in a process of its own, everything closed after. */
async function measureHeld(
  kind: HolderKind,
  url: string,
  reply: string,
  openAsker: (holder: Holder) => Promise<Asker>,
  backends: PgBackends | undefined,
  rates: Array<number | null>,
  seconds: number,
): Promise<FloorRun[]> {
  const holder = await startHolder(kind, url, reply);
  let asker: Asker | undefined;
  try {
    asker = await openAsker(holder);
    return await measureKind(kind, asker, holder.pid, backends, rates, seconds);
  } finally {
    await asker?.close();
    await holder.stop();
  }
}

/**
 * The least a hand-off between two replicas can cost, with none of the service's code, each end
 * in a process of its own: through PostgreSQL as the service hands over (`stored`, paced at `rate`
 * and in a closed loop), with the words alone (`words`), over a direct connection with no database
 * (`direct`), and the pacing alone, which every run includes; PostgreSQL's kinds in a database of
 * their own (made, then dropped).
 */
export async function measureHandOffFloor(rate: number, seconds: number): Promise<HandOffFloor> {
  const reply = replyJson();
  const runs: FloorRun[] = [];
  runs.push(...(await measureKind('pacing', pacingAlone, undefined, undefined, [rate], seconds)));
  runs.push(
    ...(await measureHeld(
      'direct',
      '',
      reply,
      (holder) => DirectAsker.open(holder.port ?? 0),
      undefined,
      [rate],
      seconds,
    )),
  );
  await withOwnDatabase('handoff_floor', async (url) => {
    const setup = new Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`CREATE UNLOGGED TABLE routed (id varchar PRIMARY KEY, state varchar NOT NULL,
        request text NOT NULL, reply text)`);
    } finally {
      await setup.end();
    }
    const backends = await PgBackends.open(TEST_POSTGRES_URL, [url]);
    try {
      for (const [kind, rates] of [
        ['stored', [rate, null]],
        ['words', [rate]],
      ] as const)
        runs.push(
          ...(await measureHeld(
            kind,
            url,
            reply,
            () => PostgresAsker.open(kind, url),
            backends,
            [...rates],
            seconds,
          )),
        );
    } finally {
      await backends.close();
    }
  });
  return { replyBytes: Buffer.byteLength(reply), waiters: WAITERS, runs };
}
