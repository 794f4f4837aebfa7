import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  API_ENTRY,
  AppProcess,
  LINK_SECRET,
  poll,
  SignedClient,
  SIMULATOR_ENTRY,
  sqliteRows,
  Stack,
} from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';

const CHARGE = '/terminal/v1/SIM0000002/sync/charge';
const REFUND = '/terminal/v1/SIM0000002/sync/refund';

/**
 * Contract §13, "several processes, one database": two API processes on one SQLite file (WAL),
 * each with a simulator linked to it. Idempotency and follow-up limits rest on the database.
 */
describe('two API processes sharing one database', () => {
  let stack: Stack;
  let secondApi: AppProcess;
  let secondSimulator: AppProcess;
  let clients: [SignedClient, SignedClient];

  beforeAll(async () => {
    stack = await Stack.start();
    secondApi = await AppProcess.start('api-2', API_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${stack.apiDatabase}`,
      LINK_SECRET,
    });
    secondSimulator = await AppProcess.start('terminal-simulator-2', SIMULATOR_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      API_URL: secondApi.url,
      DATABASE_URL: `sqlite:${join(stack.dir, 'terminal-2.sqlite')}`,
      LINK_SECRET,
      RECONNECT_MIN_MS: '20',
    });
    await poll(
      'the second simulator to link',
      async () => {
        const health = (await (await fetch(`${secondApi.url}/health`)).json()) as {
          linked_terminals: number;
        };
        return health.linked_terminals >= 3 ? true : undefined;
      },
      10_000,
    );
    clients = [stack.client(), new SignedClient(secondApi.url)];
    // Each API tells its own simulator; both simulators host SIM0000002.
    for (const client of clients) {
      expect((await client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' })).status).toBe(200);
    }
  });

  afterAll(async () => {
    await secondSimulator?.stop();
    await secondApi?.stop();
    await stack?.stop();
  });

  /** Sends to both processes at once; a busy terminal (one operation at a time) is tried again. */
  async function both(path: string, body: Json): Promise<Array<{ status: number; body: Json }>> {
    return Promise.all(
      clients.map((client) =>
        poll(
          `${path} on both processes`,
          async () => {
            const response = await client.post<Json>(path, body);
            return response.body.code === 'TER-003' ? undefined : response;
          },
          20_000,
        ),
      ),
    );
  }

  it('the same charge sent to both processes at once is charged once, and both answer it', async () => {
    for (let i = 0; i < 15; i++) {
      const body = { amount: amountOf(10000), client_transaction_id: randomUUID() };
      const answers = await both(CHARGE, body);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const references = answers.map((a) => (a.body.rawResponse as Json).transaction_reference as string);
      expect(references[0]).toBe(references[1]);
      const rows = await sqliteRows(
        stack.apiDatabase,
        'SELECT id FROM transactions WHERE client_transaction_id = ?',
        [body.client_transaction_id],
      );
      expect(rows).toHaveLength(1);
      const onTerminals = await Promise.all(
        ['terminal.sqlite', 'terminal-2.sqlite'].map((file) =>
          sqliteRows(join(stack.dir, file), 'SELECT key FROM terminal_transactions WHERE key = ?', [
            `demo-merchant:${body.client_transaction_id}`,
          ]),
        ),
      );
      expect(onTerminals[0].length + onTerminals[1].length).toBe(1);
    }
  });

  it('refunds racing across both processes refund exactly what fits in the charge', async () => {
    const charge = await clients[0].post<Json>(CHARGE, {
      amount: amountOf(10000),
      client_transaction_id: randomUUID(),
    });
    expect(charge.status).toBe(200);
    const reference = (charge.body.rawResponse as Json).transaction_reference as string;
    // Each round starts with nothing running: the first refund recorded runs, and the others find
    // it running (TRX-006) or its terminal busy (TER-003), so every round approves one refund
    // while 3000 still fits. Three fit in 10000: after four rounds exactly three are approved.
    const approved: string[] = [];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        [0, 1, 0, 1].map((n) =>
          clients[n].post<Json>(REFUND, {
            client_transaction_id: randomUUID(),
            transaction_reference: reference,
            amount: amountOf(3000),
          }),
        ),
      );
      for (const answer of answers) {
        if (answer.status === 200)
          approved.push((answer.body.rawResponse as Json).transaction_reference as string);
        else expect(['TRX-005', 'TRX-006', 'TER-003']).toContain(answer.body.code);
      }
    }
    expect(approved).toHaveLength(3);
    const refunded = await sqliteRows<{ refunded_total: number; business_state: string }>(
      stack.apiDatabase,
      'SELECT refunded_total, business_state FROM transactions WHERE transaction_reference = ?',
      [reference],
    );
    expect(refunded).toEqual([{ refunded_total: 9000, business_state: 'PARTIALLY_REFUNDED' }]);
    const approvedRefunds = await sqliteRows<{ transaction_reference: string }>(
      stack.apiDatabase,
      `SELECT transaction_reference FROM transactions WHERE operation_type = 'refund' AND target_reference = ?
       AND transaction_reference IS NOT NULL`,
      [reference],
    );
    expect(approvedRefunds.map((row) => row.transaction_reference).sort()).toEqual([...approved].sort());
  });
});
