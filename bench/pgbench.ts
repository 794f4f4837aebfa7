import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT, TEST_POSTGRES_URL } from '@tps/testing';
import { CpuMeter } from './lib/cpu-meter';
import { withOwnDatabase } from './lib/own-database';
import { PgBackends } from './lib/pg-backends';

export interface PgbenchRun {
  name: string;
  clients: number;
  threads: number;
  seconds: number;
  transactionsPerSecond: number;
  latencyAverageMs: number;
  transactions: number;
  failed: number;
  /** CPU of the database's backends per transaction, ms (pgbench itself not counted). */
  postgresCpuMsPerTransaction: number;
}

export interface PgbenchResult {
  version: string;
  scale: number;
  initSeconds: number;
  /** The server's settings that bound what it sustains. */
  settings: Record<string, string>;
  builtin: PgbenchRun;
  charge: PgbenchRun;
}

/** The statements of one sync charge, as a pgbench script (its tables made below). */
const CHARGE_SCRIPT = join(REPO_ROOT, 'bench/pgbench-charge.sql');
const CHARGE_TABLES = [
  `CREATE TABLE charge_records (id bigint PRIMARY KEY, merchant int NOT NULL, client_transaction_id text NOT NULL,
     status text NOT NULL, event_count int NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now(),
     body text NOT NULL, UNIQUE (merchant, client_transaction_id))`,
  `CREATE TABLE charge_events (record_id bigint NOT NULL, seq int NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
     body text NOT NULL, PRIMARY KEY (record_id, seq))`,
];
const SETTINGS = [
  'shared_buffers',
  'synchronous_commit',
  'fsync',
  'max_connections',
  'wal_buffers',
  'commit_delay',
];

function pgbench(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('pgbench', args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`pgbench ${args.join(' ')}: ${error.message}\n${stderr}`))
        : resolve(`${stdout}\n${stderr}`),
    ),
  );
}

const figure = (output: string, pattern: RegExp): number => Number(pattern.exec(output)?.[1] ?? NaN);

/**
 * pgbench on this machine's PostgreSQL, in a database of its own (made and dropped): its built-in
 * TPC-B-like transaction, and a script of the statements of one sync charge, each run with its
 * server backends' CPU measured from /proc, so that what one charge costs the server can be set
 * against what the server sustains.
 */
export function measurePgbench(
  scale: number,
  clients: number,
  threads: number,
  seconds: number,
): Promise<PgbenchResult> {
  return withOwnDatabase('pgbench', async (url) => {
    const parsed = new URL(url);
    const connection = [
      '-h',
      parsed.hostname,
      '-p',
      parsed.port || '5432',
      '-U',
      decodeURIComponent(parsed.username || 'postgres'),
    ];
    const database = parsed.pathname.slice(1);
    const version = (await pgbench(['--version'], 10_000)).trim().split('\n')[0];
    const initStarted = Date.now();
    await pgbench(['-i', '-q', '-s', String(scale), ...connection, database], 600_000);
    const initSeconds = (Date.now() - initStarted) / 1000;
    const client = new Client({ connectionString: url });
    await client.connect();
    const settings: Record<string, string> = {};
    try {
      for (const sql of CHARGE_TABLES) await client.query(sql);
      for (const name of SETTINGS)
        settings[name] = (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
    } finally {
      await client.end();
    }
    const backends = await PgBackends.open(TEST_POSTGRES_URL, [url]);
    try {
      const run = async (name: string, extra: string[]): Promise<PgbenchRun> => {
        const meter = await CpuMeter.start({}, { postgres: () => backends.pids() }, 200);
        const before = await meter.reading();
        const output = await pgbench(
          [
            ...extra,
            '-c',
            String(clients),
            '-j',
            String(threads),
            '-T',
            String(seconds),
            ...connection,
            database,
          ],
          (seconds + 60) * 1000,
        );
        const after = await meter.reading();
        meter.stop();
        const transactions = figure(output, /number of transactions actually processed: (\d+)/);
        return {
          name,
          clients,
          threads,
          seconds,
          transactionsPerSecond: figure(output, /tps = ([\d.]+) \(without initial connection time\)/),
          latencyAverageMs: figure(output, /latency average = ([\d.]+) ms/),
          transactions,
          failed: figure(output, /number of failed transactions: (\d+)/) || 0,
          postgresCpuMsPerTransaction: (after.postgres - before.postgres) / transactions,
        };
      };
      const builtin = await run('built-in (TPC-B-like)', []);
      const charge = await run('sync charge script', ['-n', '-M', 'prepared', '-f', CHARGE_SCRIPT]);
      return { version, scale, initSeconds, settings, builtin, charge };
    } finally {
      await backends.close();
    }
  });
}
