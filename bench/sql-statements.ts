/**
 * SQL statements per transaction, for each app, for a sync charge and for an async transaction:
 * both apps started with their statement counter (SQL_STATEMENT_COUNT_FILE), the counters read, a
 * known number of transactions carried over the terminals (a closed loop, as in the load runs:
 * group commit makes the figure depend on how many writes queue together), every trace of them
 * written (terminal queue drained, webhooks delivered), the counters read again. A run of its own,
 * because counting costs CPU. Apps without the counter (built before it) give null.
 * Standalone: `npm run build && node dist/bench/sql-statements.js`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack, WebhookReceiver, createInstantTerminals, poll, sqliteRows } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { readStatementCount, statementCountEnv } from './lib/sql-statements';

export interface StatementsPerTransaction {
  /** Statements per transaction; null when the app has no counter. */
  api: number | null;
  simulator: number | null;
  /** Transactions carried between the two readings. */
  transactions: number;
}

export interface SqlStatements {
  terminals: number;
  sync: StatementsPerTransaction;
  async: StatementsPerTransaction;
  /** Why figures are missing, when some are. */
  note?: string;
}

export const NOT_COUNTED: StatementsPerTransaction = { api: null, simulator: null, transactions: 0 };

interface Counts {
  api: number | undefined;
  simulator: number | undefined;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until both apps are done with what was sent: the terminals' events acknowledged, every
 * webhook delivered, and the counters no longer moving (two equal readings in a row).
 */
async function quiesce(stack: Stack, counts: () => Promise<Counts>): Promise<Counts> {
  await stack.waitQueueDrained(30_000);
  await poll(
    'every webhook delivered',
    async () => {
      const [outbox] = await sqliteRows<{ n: number }>(
        stack.apiDatabase,
        `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state <> 'delivered'`,
      );
      return outbox.n === 0 ? true : undefined;
    },
    30_000,
  );
  let last = await counts();
  for (let i = 0; i < 10; i++) {
    await settle(300);
    const next = await counts();
    if (next.api === last.api && next.simulator === last.simulator) return next;
    last = next;
  }
  return last;
}

const perTransaction = (before: number | undefined, after: number | undefined, n: number): number | null =>
  before === undefined || after === undefined || n === 0 ? null : (after - before) / n;

/** Carries `count` transactions over the terminals, each terminal one at a time; the number completed. */
async function closedLoop(
  serials: string[],
  count: number,
  one: (serial: string) => Promise<boolean>,
): Promise<number> {
  let left = count;
  let completed = 0;
  await Promise.all(
    serials.map(async (serial) => {
      while (left > 0) {
        left--;
        if (await one(serial)) completed++;
      }
    }),
  );
  return completed;
}

export async function measureSqlStatements(terminals: number, transactions: number): Promise<SqlStatements> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-sql-count-'));
  const files = { api: join(dir, 'api'), simulator: join(dir, 'simulator') };
  const counts = async (): Promise<Counts> => {
    const [api, simulator] = await Promise.all([
      readStatementCount(files.api),
      readStatementCount(files.simulator),
    ]);
    return { api, simulator };
  };
  const stack = await Stack.start({
    apiEnv: { ...statementCountEnv(files.api), RATE_LIMIT_MAX: '1000000' },
    simulatorEnv: statementCountEnv(files.simulator),
  });
  const receiver = await WebhookReceiver.start();
  try {
    const probe = await counts();
    if (probe.api === undefined && probe.simulator === undefined) {
      return {
        terminals,
        sync: NOT_COUNTED,
        async: NOT_COUNTED,
        note: 'the apps have no statement counter (SQL_STATEMENT_COUNT_FILE): built before it.',
      };
    }
    const serials = await createInstantTerminals(stack.client(), terminals);
    const client = stack.client();
    const waiting = new Map<string, () => void>();
    receiver.respondWith((request, _n, response) => {
      response.end();
      const event = request.body as { client_transaction_id: string; status: string };
      if (event.status === 'APPROVAL') waiting.get(event.client_transaction_id)?.();
    });
    const syncCharge = async (serial: string): Promise<boolean> =>
      (await client.send('POST', `/terminal/v1/${serial}/sync/charge`, chargeBody())).status === 200;
    const asyncCharge = async (serial: string): Promise<boolean> => {
      const id = randomUUID();
      const approved = new Promise<void>((resolve) => waiting.set(id, resolve));
      const answer = await client.send(
        'POST',
        `/terminal/v1/${serial}/async/charge`,
        chargeBody(receiver.url(), id),
      );
      if (answer.status === 200) await approved;
      waiting.delete(id);
      return answer.status === 200;
    };
    const measure = async (one: (serial: string) => Promise<boolean>): Promise<StatementsPerTransaction> => {
      // One transaction per terminal first: what is read once and kept is not counted per transaction.
      await closedLoop(serials, serials.length, one);
      const before = await quiesce(stack, counts);
      const completed = await closedLoop(serials, transactions, one);
      const after = await quiesce(stack, counts);
      return {
        api: perTransaction(before.api, after.api, completed),
        simulator: perTransaction(before.simulator, after.simulator, completed),
        transactions: completed,
      };
    };
    const sync = await measure(syncCharge);
    const async = await measure(asyncCharge);
    const partly = [sync.api, sync.simulator, async.api, async.simulator].includes(null);
    return { terminals, sync, async, ...(partly ? { note: 'an app wrote no count.' } : {}) };
  } finally {
    await receiver.close();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  measureSqlStatements(
    Number(process.env.BENCH_PIPELINE_TERMINALS ?? 32),
    Number(process.env.BENCH_SQL_TRANSACTIONS ?? 640),
  )
    .then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
