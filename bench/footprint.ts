import { join } from 'node:path';
import { poll, sqliteRows, Stack, WebhookReceiver } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { cloneRows, uuidFor } from './lib/clone-rows';
import { residentMiB } from './lib/resident-memory';
import { percentile } from './lib/stats';

export interface Footprint {
  stored: number;
  idleApiMiB: number[];
  idleSimulatorMiB: number[];
  loadedApiMiB: number[];
  loadedSimulatorMiB: number[];
  /** Online search of the newest page at `stored` transactions, ms: one figure per repetition. */
  searchP50: number[];
  searchP99: number[];
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sampleMemory(stack: Stack, reps: number): Promise<{ api: number[]; simulator: number[] }> {
  const api: number[] = [];
  const simulator: number[] = [];
  for (let i = 0; i < reps; i++) {
    await settle(1000);
    api.push(residentMiB(stack.api.pid ?? 0));
    simulator.push(residentMiB(stack.simulator?.pid ?? 0));
  }
  return { api, simulator };
}

/** One approved charge made through the real service: the template every stored copy is cut from. */
async function makeTemplate(stack: Stack, receiver: WebhookReceiver): Promise<string> {
  const response = await stack
    .client()
    .send<{ client_transaction_id: string }>(
      'POST',
      '/terminal/v1/SIM0000002/async/charge',
      chargeBody(receiver.url('/template')),
    );
  await receiver.waitFor((all) => all.some((r) => (r.body as { status?: string }).status === 'APPROVAL'));
  await stack.waitQueueDrained();
  return response.body.client_transaction_id;
}

/** Stores `count` copies of the template in both apps' SQLite files, directly, while they are stopped. */
async function storeCopies(stack: Stack, clientId: string, count: number): Promise<void> {
  const api = join(stack.dir, 'api.sqlite');
  const terminal = join(stack.dir, 'terminal.sqlite');
  const [template] = await sqliteRows<{ id: string }>(
    api,
    'SELECT id FROM transactions WHERE client_transaction_id = ?',
    [clientId],
  );
  await cloneRows(api, 'transactions', `id = '${template.id}'`, count, {
    id: uuidFor('id'),
    client_transaction_id: uuidFor('client_transaction_id'),
    transaction_reference: uuidFor('transaction_reference'),
    created_at: `datetime(t.created_at, '-' || n || ' seconds')`,
    // Search orders by this column: copies sharing one value would all tie and sort by id.
    created_at_ms: `t.created_at_ms - n * 1000`,
  });
  await cloneRows(api, 'transaction_events', `transaction_id = '${template.id}'`, count, {
    event_id: uuidFor('event_id'),
    transaction_id: uuidFor('transaction_id'),
  });
  const key = `demo-merchant:${clientId}`;
  await cloneRows(terminal, 'terminal_transactions', `key = '${key}'`, count, {
    key: `t.key || ':' || n`,
  });
  await cloneRows(
    terminal,
    'terminal_events',
    `transaction_key = '${key}'`,
    count,
    { event_id: uuidFor('event_id'), transaction_key: `t.transaction_key || ':' || n` },
    ['seq'],
  );
}

async function searchLatencies(stack: Stack, requests: number): Promise<number[]> {
  const client = stack.client();
  const latencies: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = process.hrtime.bigint();
    const answer = await client.post('/terminal/v1/sync/transaction_search_online', { limit: 20 });
    if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return latencies;
}

/** Resident memory idle and with `count` stored transactions, and search latency at that size. */
export async function measureFootprint(count: number, reps: number): Promise<Footprint> {
  const stack = await Stack.start();
  const receiver = await WebhookReceiver.start();
  try {
    const idle = await sampleMemory(stack, reps);
    const clientId = await makeTemplate(stack, receiver);
    await stack.simulator?.stop();
    await stack.api.stop();
    await storeCopies(stack, clientId, count);
    await stack.startApi();
    await stack.startSimulator();
    await stack.waitLinked(3);
    await poll(
      'the simulator to settle',
      async () => ((await fetch(`${stack.simulator?.url}/health`)).ok ? true : undefined),
      10_000,
    );
    const searchP50: number[] = [];
    const searchP99: number[] = [];
    for (let i = 0; i < reps; i++) {
      const latencies = await searchLatencies(stack, 200);
      searchP50.push(percentile(latencies, 50));
      searchP99.push(percentile(latencies, 99));
    }
    const loaded = await sampleMemory(stack, reps);
    return {
      stored: count,
      idleApiMiB: idle.api,
      idleSimulatorMiB: idle.simulator,
      loadedApiMiB: loaded.api,
      loadedSimulatorMiB: loaded.simulator,
      searchP50,
      searchP99,
    };
  } finally {
    await receiver.close();
    await stack.stop();
  }
}
