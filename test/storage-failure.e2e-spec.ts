import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { poll, sqliteRows, Stack, type ClientResponse } from '@tps/testing';
import { amountOf, newBody, searchPath, type Json } from './payment-helpers';

/**
 * Contract §13, "a failed write is never answered 2xx": the API's database on a real disk that
 * fills up (a 4 MiB tmpfs) or a file made immutable. Every answer is either a 2xx whose
 * transaction survives a restart, or 503 INT-002 with Retry-After; writing resumes by itself.
 */
describe('the API when its storage fails', () => {
  let stack: Stack;
  let mountPoint: string | undefined;

  const health = async (): Promise<{ status: number; database: string }> => {
    const response = await fetch(`${stack.apiUrl}/health`);
    const body = (await response.json()) as { database: { state: string } };
    return { status: response.status, database: body.database.state };
  };

  const charge = (id: string): Promise<ClientResponse<Json>> =>
    stack.client().post<Json>('/terminal/v1/SIM0000002/sync/charge', {
      ...newBody({ amount: amountOf(10000) }),
      client_transaction_id: id,
    });

  const searched = async (id: string): Promise<Json | undefined> => {
    const answer = await stack
      .client()
      .post<Json>(searchPath('local', 'online'), { client_transaction_id: id });
    return answer.body.items?.[0] as Json | undefined;
  };

  /** Charges, sorting the answers; any answer but 200 or 503 INT-002 fails the test. */
  async function chargeAll(ids: string[]): Promise<{ approved: Map<string, string>; refused: string[] }> {
    const approved = new Map<string, string>();
    const refused: string[] = [];
    for (const id of ids) {
      const response = await charge(id);
      if (response.status === 200) {
        approved.set(id, (response.body.rawResponse as Json).transaction_reference as string);
        continue;
      }
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 503, code: 'INT-002' });
      expect(response.body.type).toBe('INTERNAL');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      refused.push(id);
    }
    return { approved, refused };
  }

  /** After a restart of the API on the same file, each approved charge is there as answered. */
  async function expectSurvivesRestart(approved: Map<string, string>): Promise<void> {
    await stack.simulator?.stop();
    await stack.restartApi();
    await stack.startSimulator();
    await stack.waitLinked(3);
    for (const [id, reference] of approved) {
      const item = await searched(id);
      expect({ id, status: item?.status, reference: item?.transaction_reference }).toEqual({
        id,
        status: 'APPROVAL',
        reference,
      });
    }
  }

  afterEach(async () => {
    await stack?.stop();
    if (mountPoint !== undefined) {
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
      mountPoint = undefined;
    }
  });

  it('a full disk: 503 INT-002 while full, nothing answered 2xx is lost, writing resumes without a restart', async () => {
    const disk = mkdtempSync(join(tmpdir(), 'tps-full-'));
    mountPoint = disk;
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk]);
    const database = join(disk, 'api.sqlite');
    stack = await Stack.start({ apiEnv: { DATABASE_URL: `sqlite:${database}` } });
    const filler = join(disk, 'filler');

    const before = await chargeAll(['a', 'b', 'c'].map(() => crypto.randomUUID()));
    expect(before.refused).toEqual([]);

    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k', 'count=4096'], { stdio: 'ignore' });
    } catch {
      // dd stops when the disk is full: that is the point.
    }
    const during = await chargeAll(Array.from({ length: 12 }, () => crypto.randomUUID()));
    expect(during.refused.length).toBeGreaterThan(0);
    expect(await health()).toEqual({ status: 503, database: 'down' });

    rmSync(filler);
    await poll(
      'the database to be writable again',
      async () => ((await health()).database === 'up' ? true : undefined),
      10_000,
    );
    const after = await chargeAll(['d', 'e', 'f'].map(() => crypto.randomUUID()));
    expect(after.refused).toEqual([]);

    // A refused charge charged nothing it answered: the same id now runs, or answers its outcome.
    for (const id of during.refused) {
      const retried = await poll(
        `a retry of ${id}`,
        async () => {
          const response = await charge(id);
          return response.status === 200 ? response : undefined;
        },
        20_000,
      );
      during.approved.set(id, (retried.body.rawResponse as Json).transaction_reference as string);
    }

    await expectSurvivesRestart(new Map([...before.approved, ...during.approved, ...after.approved]));
    expect(readdirSync(disk)).toContain('api.sqlite');
  });

  it('an immutable database file: 503 INT-002, then every write of the answered charges lands', async () => {
    stack = await Stack.start();
    const files = [stack.apiDatabase, `${stack.apiDatabase}-wal`];
    const before = await chargeAll([crypto.randomUUID()]);
    execFileSync('chattr', ['+i', ...files]);
    let during: Awaited<ReturnType<typeof chargeAll>>;
    try {
      during = await chargeAll(Array.from({ length: 4 }, () => crypto.randomUUID()));
      expect(during.refused.length).toBeGreaterThan(0);
      expect((await health()).database).toBe('down');
    } finally {
      execFileSync('chattr', ['-i', ...files]);
    }
    const after = await chargeAll([crypto.randomUUID(), crypto.randomUUID()]);
    expect(after.refused).toEqual([]);
    const stored = await sqliteRows<{ n: number }>(
      stack.apiDatabase,
      'SELECT COUNT(*) AS n FROM transactions',
    );
    expect(stored[0].n).toBeGreaterThanOrEqual(
      before.approved.size + during.approved.size + after.approved.size,
    );
    await expectSurvivesRestart(new Map([...before.approved, ...during.approved, ...after.approved]));
  });
});
