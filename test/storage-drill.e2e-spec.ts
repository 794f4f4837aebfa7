import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInstantTerminals, sqliteRows, Stack } from '@tps/testing';
import { chargeUntilAnswered, everyOnline, lostAnswers, type AnsweredCharge } from './payment-helpers';

const TERMINALS = 200;
const PER_TERMINAL = 10;
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

/**
 * A drill of 2,000 sync charges over 200 terminals while the API's disk fills up for a
 * while in the middle. Afterwards, and after a restart: every charge answered 2xx is in online
 * search with the outcome it was answered, every transaction a terminal ran is in the service
 * with the same status, and nothing was charged twice.
 */
describe('a load drill with storage failing in the middle', () => {
  let stack: Stack;
  let disk: string;

  beforeAll(async () => {
    disk = mkdtempSync(join(tmpdir(), 'tps-drill-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', disk]);
    stack = await Stack.start({ apiEnv: { DATABASE_URL: `sqlite:${join(disk, 'api.sqlite')}` } });
  });

  afterAll(async () => {
    await stack?.stop();
    execFileSync('umount', ['-l', disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it('loses nothing it answered, records everything a terminal did, charges nothing twice', async () => {
    const client = stack.client();
    const serials = ['SIM0000002', ...(await createInstantTerminals(client, TERMINALS - 1))];

    const answered = new Map<string, AnsweredCharge>();
    const refusals = new Map<string, number>();
    const takenButNotTaken: string[] = [];
    let done = 0;
    const filler = join(disk, 'filler');
    let failing: Promise<void> | undefined;

    const charge = (serial: string, id: string, total: number): Promise<void> =>
      chargeUntilAnswered(client, { serial, id, total, attempts: 200 }, answered, async (response) => {
        // The refusals a failing disk (and a busy sandbox) may cause; each is retried with the same id.
        expect(['INT-002', 'INT-003', 'TER-002', 'RATE-001']).toContain(response.body.code);
        if (response.body.code === 'INT-002') {
          // Contract §13: INT-002 says the operation was not taken, so its terminal has no trace of it.
          const taken = await sqliteRows<{ status: string }>(
            join(stack.dir, 'terminal.sqlite'),
            'SELECT status FROM terminal_transactions WHERE key = ?',
            [`demo-merchant:${id}`],
          );
          if (taken.length > 0) takenButNotTaken.push(`${id}: INT-002 answered, terminal ${taken[0].status}`);
        }
        refusals.set(response.body.code as string, (refusals.get(response.body.code as string) ?? 0) + 1);
      });

    await Promise.all(
      serials.map(async (serial, t) => {
        for (let n = 0; n < PER_TERMINAL; n++) {
          // One in ten declines (ends in 51), so outcomes differ and must be kept apart.
          await charge(serial, crypto.randomUUID(), 10000 + (n === 3 ? 51 : 0) + t * 100);
          done++;
          if (done === Math.floor((TERMINALS * PER_TERMINAL) / 3) && failing === undefined) {
            failing = (async () => {
              try {
                execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'count=4000'], {
                  stdio: 'ignore',
                });
              } catch {
                // full: the point
              }
              // Full until writes have failed for a while: SQLite reuses its log's space, so the
              // first writes after the disk fills may still fit.
              const deadline = Date.now() + 15_000;
              while ((refusals.get('INT-002') ?? 0) < 20 && Date.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 100));
              }
              rmSync(filler);
            })();
          }
        }
      }),
    );
    await failing;
    expect(answered.size).toBe(TERMINALS * PER_TERMINAL);
    expect(refusals.get('INT-002') ?? 0).toBeGreaterThan(0);
    expect(takenButNotTaken).toEqual([]);

    await stack.waitQueueDrained(30_000);
    await stack.simulator?.stop();
    await stack.restartApi();
    await stack.startSimulator();
    await stack.waitLinked(TERMINALS + 2, 30_000);

    const online = await everyOnline(stack.client());

    const lost = lostAnswers(answered, online);
    expect(lost).toEqual([]);

    // Nothing stored half: each transaction's state, event counter and events agree, whatever the
    // batches that failed with the disk (writes of a batch run side by side: the batch guard).
    const rows = await sqliteRows<{
      id: string;
      status: string | null;
      counted: number;
      events: number;
      last: string | null;
    }>(
      join(disk, 'api.sqlite'),
      'SELECT t.client_transaction_id AS id, t.status, t.event_count AS counted, ' +
        '(SELECT COUNT(*) FROM transaction_events e WHERE e.transaction_id = t.id) AS events, ' +
        '(SELECT e.status FROM transaction_events e WHERE e.transaction_id = t.id ORDER BY e.sequence DESC LIMIT 1) AS last ' +
        'FROM transactions t',
    );
    expect(rows.length).toBeGreaterThanOrEqual(answered.size);
    expect(rows.filter((row) => row.events !== row.counted || row.last !== row.status)).toEqual([]);

    const onTerminals = await sqliteRows<{ key: string; status: string }>(
      join(stack.dir, 'terminal.sqlite'),
      "SELECT key, status FROM terminal_transactions WHERE key LIKE 'demo-merchant:%'",
    );
    const missing = onTerminals
      .filter((row) => FINAL.includes(row.status))
      .filter((row) => online.get(row.key.slice('demo-merchant:'.length))?.status !== row.status)
      .map((row) => `${row.key} ${row.status}`);
    expect(missing).toEqual([]);
    // Charged once: one terminal transaction per id, and as many approvals as approved answers.
    expect(new Set(onTerminals.map((row) => row.key)).size).toBe(onTerminals.length);
    const approvedOnTerminals = onTerminals.filter((row) => row.status === 'APPROVAL').length;
    expect(approvedOnTerminals).toBe([...answered.values()].filter((a) => a.approved).length);
    // 2,000 charges and a restart: on two cores shared with other suites they take minutes.
  }, 240_000);
});
