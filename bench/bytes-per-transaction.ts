/**
 * `npm run bench:bytes`: the bytes each transaction leaves in the stores. On fresh stacks (SQLite
 * files, then PostgreSQL databases of their own), BENCH_TRANSACTIONS sync charges, then as many
 * async charges with a webhook each (delivered to a local receiver before the sizes are read), over
 * BENCH_TERMINALS instant terminals; each table of each app is measured before and after each
 * phase. Writes the section "Bytes stored per transaction" into BENCHMARKS.md (the rest kept) and
 * the raw figures to bench/results/bytes-<commit>.json.
 *
 * Knobs (environment), with their defaults: BENCH_TRANSACTIONS (1000), BENCH_TERMINALS (8),
 * TEST_STORES (sqlite,postgres); BENCH_BEFORE_JSON: an earlier run's JSON, for a before/after
 * table; BENCH_FROM_JSON: render the section from that JSON only.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO_ROOT,
  STORES,
  Stack,
  WebhookReceiver,
  createInstantTerminals,
  poll,
  type SignedClient,
  type StoreKind,
} from '@tps/testing';
import { BYTES_SECTION_TITLE, renderBytes, type BytesRun, type StoreBytes } from './bytes-report';
import { withSectionTitled } from './lib/markdown-section';
import { describeMachine } from './lib/machine';
import { grownPer, tableSizes, type TableSizes } from './lib/table-sizes';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

const TRANSACTIONS = knob('BENCH_TRANSACTIONS', 1000);
const TERMINALS = knob('BENCH_TERMINALS', 8);

const log = (what: string): void =>
  void process.stdout.write(`bench:bytes ${new Date().toISOString()} ${what}\n`);

interface Sizes {
  api: TableSizes;
  terminal: TableSizes;
}

async function sizesOf(stack: Stack): Promise<Sizes> {
  return { api: await tableSizes(stack.store, 'api'), terminal: await tableSizes(stack.store, 'terminal') };
}

/** `count` charges, each terminal running its share one after the other. */
async function charges(
  client: SignedClient,
  serials: string[],
  count: number,
  mode: 'sync' | 'async',
  webhook: string | undefined,
): Promise<void> {
  await Promise.all(
    serials.map(async (serial, index) => {
      for (let n = index; n < count; n += serials.length) {
        const body = {
          amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
          client_transaction_id: randomUUID(),
          ...(webhook === undefined ? {} : { events_webhook_url: webhook }),
        };
        for (;;) {
          const answer = await client.post(`/terminal/v1/${serial}/${mode}/charge`, body);
          if (answer.status === 200) break;
          // The terminal still finishing the previous async charge: the same request again.
          if (answer.status !== 409) throw new Error(`${mode} charge answered ${answer.status}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    }),
  );
}

async function measureOn(store: StoreKind): Promise<StoreBytes> {
  const receiver = await WebhookReceiver.start();
  const stack = await Stack.start({ store, apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  try {
    const client = stack.client();
    const serials = await createInstantTerminals(client, TERMINALS);
    await stack.waitQueueDrained();
    const start = await sizesOf(stack);
    log(`${store}: ${TRANSACTIONS} sync charges`);
    await charges(client, serials, TRANSACTIONS, 'sync', undefined);
    await stack.waitQueueDrained(60_000);
    const afterSync = await sizesOf(stack);
    log(`${store}: ${TRANSACTIONS} async charges`);
    await charges(client, serials, TRANSACTIONS, 'async', receiver.url('/bytes'));
    await poll(
      'every APPROVAL webhook',
      async () => {
        const approvals = receiver.received.filter(
          (r) => (r.body as { status?: string }).status === 'APPROVAL',
        );
        return approvals.length >= TRANSACTIONS ? true : undefined;
      },
      120_000,
    );
    await stack.waitQueueDrained(60_000);
    const afterAsync = await sizesOf(stack);
    return {
      store,
      sync: {
        api: grownPer(start.api, afterSync.api, TRANSACTIONS),
        terminal: grownPer(start.terminal, afterSync.terminal, TRANSACTIONS),
      },
      async: {
        api: grownPer(afterSync.api, afterAsync.api, TRANSACTIONS),
        terminal: grownPer(afterSync.terminal, afterAsync.terminal, TRANSACTIONS),
      },
    };
  } finally {
    await stack.stop();
    await receiver.close();
  }
}

async function measure(): Promise<BytesRun> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).trim();
  const stores: StoreBytes[] = [];
  for (const store of STORES) stores.push(await measureOn(store));
  return { machine: describeMachine(), commit, transactions: TRANSACTIONS, terminals: TERMINALS, stores };
}

async function main(): Promise<void> {
  const fromJson = process.env.BENCH_FROM_JSON;
  const run = fromJson ? (JSON.parse(readFileSync(fromJson, 'utf8')) as BytesRun) : await measure();
  if (!fromJson) {
    const file = join(REPO_ROOT, 'bench', 'results', `bytes-${run.commit}.json`);
    writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
    log(`raw figures in ${file}`);
  }
  const beforeJson = process.env.BENCH_BEFORE_JSON;
  if (beforeJson) run.before = JSON.parse(readFileSync(beforeJson, 'utf8')) as BytesRun;
  const path = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(path, withSectionTitled(readFileSync(path, 'utf8'), BYTES_SECTION_TITLE, renderBytes(run)));
  log('BENCHMARKS.md: section "Bytes stored per transaction" written');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
