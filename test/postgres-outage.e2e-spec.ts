import { randomUUID } from 'node:crypto';
import { createInstantTerminals, poll, Stack } from '@tps/testing';
import {
  amountOf,
  chargeUntilAnswered,
  everyOnline,
  lostAnswers,
  storedHalf,
  type AnsweredCharge,
  type Json,
} from './payment-helpers';
import { cutOff, restore } from './storage-faults';

const TERMINALS = 20;
const PER_TERMINAL = 15;
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

/**
 * Contract §19 on PostgreSQL: while the API's database is unreachable, a charge is answered 503
 * INT-002 (not taken) or 504 (taken, outcome unknown), never 500; the API goes on by itself when
 * the database is back, every charge answered 2xx is stored with the outcome it was answered, a
 * same-id retry answers it, and nothing is charged twice.
 */
describe('PostgreSQL unreachable in the middle of a load [postgres]', () => {
  let stack: Stack;
  let database: string;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres' });
    database = new URL(await stack.store.url('api')).pathname.slice(1);
  });

  afterAll(async () => {
    if (database !== undefined) await restore(database).catch(() => undefined);
    await stack?.stop();
  });

  it('answers 503/504 while down, resumes without a restart, loses nothing answered', async () => {
    const client = stack.client();
    const serials = ['SIM0000002', ...(await createInstantTerminals(client, TERMINALS - 1))];
    const answered = new Map<string, AnsweredCharge>();
    const refusals = new Map<string, number>();
    const unexpected: string[] = [];
    const takenButNotTaken: string[] = [];
    let done = 0;
    let outage: Promise<void> | undefined;
    const refusedCount = (): number => [...refusals.values()].reduce((sum, n) => sum + n, 0);

    const charge = (serial: string, id: string, total: number): Promise<void> =>
      chargeUntilAnswered(client, { serial, id, total, attempts: 300 }, answered, async (response) => {
        const code = String(response.body.code);
        const expected =
          (response.status === 503 && code === 'INT-002') ||
          (response.status === 504 && (code === 'INT-003' || code === 'TER-002'));
        if (!expected)
          unexpected.push(`${response.status} ${code}: ${JSON.stringify(response.body).slice(0, 200)}`);
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
        if (code === 'INT-002') {
          // Contract §19: INT-002 says the operation was not taken, so its terminal has no trace of it.
          const taken = await stack.store.rows<{ status: string }>(
            'terminal',
            'SELECT status FROM terminal_transactions WHERE key = ?',
            [`demo-merchant:${id}`],
          );
          if (taken.length > 0) takenButNotTaken.push(`${id}: INT-002 answered, terminal ${taken[0].status}`);
        }
      });

    await Promise.all(
      serials.map(async (serial, t) => {
        for (let n = 0; n < PER_TERMINAL; n++) {
          await charge(serial, randomUUID(), 10000 + (n === 3 ? 51 : 0) + t * 100);
          done++;
          if (done === Math.floor((TERMINALS * PER_TERMINAL) / 3) && outage === undefined) {
            outage = (async () => {
              await cutOff(database);
              // Down until writes have been refused for a while.
              const deadline = Date.now() + 15_000;
              while (refusedCount() < 20 && Date.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 100));
              }
              await restore(database);
            })();
          }
        }
      }),
    );
    await outage;
    expect(unexpected).toEqual([]);
    expect(takenButNotTaken).toEqual([]);
    expect(answered.size).toBe(TERMINALS * PER_TERMINAL);
    // Refused while down: 503 INT-002 only where a read shows the id was never recorded; with the
    // database unreadable too, whether an earlier request was taken is unknown, so 504 INT-003.
    expect(refusedCount()).toBeGreaterThan(0);

    // The same API process, never restarted: its storage is up again, and everything a terminal
    // ran reaches it.
    await poll(
      'the API to report its database up',
      async () => {
        const health = (await (await fetch(`${stack.apiUrl}/health`)).json()) as Json;
        return health.database.state !== 'down' ? true : undefined;
      },
      15_000,
    );
    await stack.waitQueueDrained(30_000);

    const online = await everyOnline(client);

    const lost = lostAnswers(answered, online);
    expect(lost).toEqual([]);

    // A same-id retry answers what was answered.
    const [someId, first] = [...answered.entries()][0];
    const again = await client.post<Json>(`/terminal/v1/SIM0000002/sync/charge`, {
      amount: amountOf(10000),
      client_transaction_id: someId,
    });
    if (again.status === 200) expect(again.body.approved).toBe(first.approved);
    else expect(again.body.code).toBe('TRX-001');

    // Nothing stored half, and every terminal transaction is in the service with the same status.
    expect(await storedHalf(stack)).toEqual([]);
    const onTerminals = await stack.store.rows<{ key: string; status: string }>(
      'terminal',
      "SELECT key, status FROM terminal_transactions WHERE key LIKE 'demo-merchant:%'",
    );
    const missing = onTerminals
      .filter((row) => FINAL.includes(row.status))
      .filter((row) => online.get(row.key.slice('demo-merchant:'.length))?.status !== row.status)
      .map((row) => `${row.key} ${row.status}`);
    expect(missing).toEqual([]);
    const approvedOnTerminals = onTerminals.filter((row) => row.status === 'APPROVAL').length;
    expect(approvedOnTerminals).toBe([...answered.values()].filter((a) => a.approved).length);
  }, 240_000);
});
