import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { REPO_ROOT, TEST_POSTGRES_URL } from '@tps/testing';
import { CpuMeter } from './lib/cpu-meter';
import { withOwnDatabase } from './lib/own-database';
import { PgBackends } from './lib/pg-backends';

/** One load of bare hand-offs: paced at `rate` a second, or a closed loop (`rate` null). */
export interface FloorRun {
  rate: number | null;
  seconds: number;
  handOffs: number;
  /** CPU per hand-off, ms: this one Node process (both ends), the PostgreSQL backends, both. */
  nodeMs: number;
  postgresMs: number;
  totalMs: number;
}

export interface HandOffFloor {
  /** Bytes of the reply that travels back in the word and is stored in the row. */
  replyBytes: number;
  waiters: number;
  /** CPU of the same processes with no hand-off (the sweep, the meter's sampling), ms a second: taken off each run. */
  idle: { nodeMsPerSecond: number; postgresMsPerSecond: number };
  runs: FloorRun[];
}

/** Requests in flight at once, as terminals in the routed phase. */
const WAITERS = 16;
const WARMUP_SECONDS = 3;
/** A word that never comes (a lost NOTIFY) ends the run rather than hanging it. */
const ANSWER_TIMEOUT_MS = 10_000;
const CHANNEL = 'handoff_floor';

/**
 * A sync charge's reply as a terminal sends it (its four events, the order, the outcome), taken
 * from a routed charge: its size, and how well it compresses when stored, are a real reply's.
 */
const replyJson = (): string =>
  JSON.stringify(JSON.parse(readFileSync(join(REPO_ROOT, 'bench/lib/sync-charge-reply.json'), 'utf8')));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Both ends of the least hand-off the service's routing can make, with none of its code: the asker
 * stores a request and sends its word in one statement; the holder, told, takes it (one `UPDATE`),
 * then stores the reply and sends it in its word (one `UPDATE`); the asker, told, has the reply;
 * the rows go in one `DELETE` a second. The table is unlogged, the statements prepared, as in the
 * service. Both ends live in this one process, so the figure is a floor: two processes wake twice.
 */
class BareHandOff {
  private readonly waiters = new Map<string, () => void>();
  private done: string[] = [];
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly asker: Pool,
    private readonly holder: Pool,
    private readonly listeners: Client[],
    private readonly reply: string,
  ) {}

  static async open(url: string, reply: string): Promise<BareHandOff> {
    const setup = new Client({ connectionString: url });
    await setup.connect();
    await setup.query(`CREATE UNLOGGED TABLE routed (id varchar PRIMARY KEY, state varchar NOT NULL,
      request text NOT NULL, reply text)`);
    await setup.end();
    const listeners = [new Client({ connectionString: url }), new Client({ connectionString: url })];
    for (const listener of listeners) {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
    }
    const pools = [new Pool({ connectionString: url, max: 4 }), new Pool({ connectionString: url, max: 4 })];
    // A connection the server ends (its database dropped after a failed run) fails the queries on
    // it, which end the run with their reason; unheard, its error would end the whole benchmark.
    for (const pool of pools) pool.on('error', () => undefined);
    for (const listener of listeners) listener.on('error', () => undefined);
    const floor = new BareHandOff(pools[0], pools[1], listeners, reply);
    const [askerEars, holderEars] = listeners;
    // Each end skips the other's words by their first character, as a replica skips its own.
    askerEars.on('notification', ({ payload }) => {
      if (payload?.startsWith('a')) floor.answered(payload.slice(1));
    });
    holderEars.on('notification', ({ payload }) => {
      // A take that fails leaves its asker to time out, which ends the run.
      if (payload?.startsWith('h')) floor.take(payload.slice(1)).catch(() => undefined);
    });
    // Rows a failed sweep leaves stay until the database is dropped, after the run.
    floor.sweeper = setInterval(() => void floor.sweep().catch(() => undefined), 1000);
    return floor;
  }

  async one(): Promise<void> {
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<void>((resolve, reject) => {
      this.waiters.set(id, resolve);
      timer = setTimeout(
        () => reject(new Error(`no answer to hand-off ${id} within ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      );
    });
    try {
      await this.asker.query({
        name: 'hand',
        text: `WITH handed AS (INSERT INTO routed (id, state, request) VALUES ($1, 'pending', $2) RETURNING id)
          SELECT pg_notify('${CHANNEL}', 'h' || id) FROM handed`,
        values: [id, '{"type":"authorize","amount":1234,"currency":"EUR"}'],
      });
      await answered;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
    this.done.push(id);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([this.asker.end(), this.holder.end(), ...this.listeners.map((l) => l.end())]);
  }

  private answered(word: string): void {
    const { id } = JSON.parse(word) as { id: string };
    this.waiters.get(id)?.();
  }

  private async take(id: string): Promise<void> {
    await this.holder.query({
      name: 'take',
      text: `UPDATE routed SET state = 'taken' WHERE id = $1 AND state = 'pending' RETURNING request`,
      values: [id],
    });
    await this.holder.query({
      name: 'answer',
      text: `WITH answered AS (UPDATE routed SET state = 'answered', reply = $2 WHERE id = $1 RETURNING id)
        SELECT pg_notify('${CHANNEL}', $3) FROM answered`,
      values: [id, this.reply, `a{"id":${JSON.stringify(id)},"reply":${this.reply}}`],
    });
  }

  private async sweep(): Promise<void> {
    const ids = this.done;
    this.done = [];
    if (ids.length > 0)
      await this.asker.query({ name: 'sweep', text: 'DELETE FROM routed WHERE id = ANY($1)', values: [ids] });
  }
}

/** Runs hand-offs for `seconds`: WAITERS at once, each starting its next every WAITERS/rate s. */
async function load(floor: BareHandOff, rate: number | null, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: WAITERS }, async (_, i) => {
      if (rate !== null) await sleep((i * 1000) / rate);
      while (Date.now() < end) {
        const started = Date.now();
        await floor.one();
        count++;
        if (rate !== null) await sleep(Math.max(0, (WAITERS * 1000) / rate - (Date.now() - started)));
      }
    }),
  );
  return count;
}

/**
 * What the bare hand-off costs, all processes, at each rate (null: a closed loop), in a database
 * of its own (made, then dropped): the least a routed charge can cost above a local one. The same
 * processes' CPU with no hand-off, measured first, is taken off each run, as the routed phase's is.
 */
export function measureHandOffFloor(rates: Array<number | null>, seconds: number): Promise<HandOffFloor> {
  return withOwnDatabase('handoff_floor', async (url) => {
    const reply = replyJson();
    const backends = await PgBackends.open(TEST_POSTGRES_URL, [url]);
    // Each closed whatever fails, so that none is left open when the database is dropped.
    const floor = await BareHandOff.open(url, reply).catch(async (error: unknown) => {
      await backends.close();
      throw error;
    });
    let openedMeter: CpuMeter | undefined;
    try {
      const meter = (openedMeter = await CpuMeter.start(
        { node: process.pid },
        { postgres: () => backends.pids() },
      ));
      const idleBefore = await meter.reading();
      const idleStarted = Date.now();
      await sleep(seconds * 1000);
      const idleAfter = await meter.reading();
      const idleSeconds = (Date.now() - idleStarted) / 1000;
      const idle = {
        nodeMsPerSecond: (idleAfter.node - idleBefore.node) / idleSeconds,
        postgresMsPerSecond: (idleAfter.postgres - idleBefore.postgres) / idleSeconds,
      };
      const runs: FloorRun[] = [];
      for (const rate of rates) {
        await load(floor, rate, WARMUP_SECONDS);
        const before = await meter.reading();
        const started = Date.now();
        const handOffs = await load(floor, rate, seconds);
        const after = await meter.reading();
        const elapsed = (Date.now() - started) / 1000;
        const nodeMs = (after.node - before.node - idle.nodeMsPerSecond * elapsed) / handOffs;
        const postgresMs = (after.postgres - before.postgres - idle.postgresMsPerSecond * elapsed) / handOffs;
        runs.push({ rate, seconds: elapsed, handOffs, nodeMs, postgresMs, totalMs: nodeMs + postgresMs });
      }
      return { replyBytes: Buffer.byteLength(reply), waiters: WAITERS, idle, runs };
    } finally {
      openedMeter?.stop();
      await Promise.allSettled([backends.close(), floor.close()]);
    }
  });
}
