import type { Pool } from 'pg';
import type { RequestRouter } from './request-router';
import { StoredLinkRouting } from './stored-link-routing';
import { ThisReplica } from './this-replica';

/** A pool whose statements are recorded and answered only when the spec says so. */
class HeldPool {
  readonly statements: Array<{ sql: string; params: unknown[] }> = [];
  private readonly waiting: Array<() => void> = [];

  query(sql: string, params: unknown[]): Promise<{ rows: [] }> {
    this.statements.push({ sql, params });
    return new Promise((resolve) => this.waiting.push(() => resolve({ rows: [] })));
  }

  /** Answers the statements sent so far, and lets the writes queued behind them go. */
  async answer(): Promise<void> {
    for (const resolve of this.waiting.splice(0)) resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function routingOn(pool: HeldPool): StoredLinkRouting {
  const asPool = pool as unknown as Pool;
  return new StoredLinkRouting(
    asPool,
    new ThisReplica(asPool, 'replica-a', 1000, () => undefined),
    {} as RequestRouter,
    (error) => {
      throw error;
    },
    () => undefined,
  );
}

const flushed = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('StoredLinkRouting', () => {
  it('stores the uplinks that open while a write is under way in one statement', async () => {
    const pool = new HeldPool();
    const routing = routingOn(pool);
    routing.uplinkOpened('SIM0000001');
    await flushed();
    for (let n = 2; n <= 500; n++) routing.uplinkOpened(`SIM${String(n).padStart(7, '0')}`);
    await flushed();
    expect(pool.statements).toHaveLength(1);

    await pool.answer();
    expect(pool.statements).toHaveLength(2);
    const [, batch] = pool.statements;
    expect(batch.sql).toContain('INSERT INTO terminal_uplinks');
    expect((batch.params[2] as string[]).length).toBe(499);
    expect(batch.params[3]).toEqual([]);
  });

  it('stores only how each uplink of a batch stands after its last change', async () => {
    const pool = new HeldPool();
    const routing = routingOn(pool);
    routing.controlOpened('shard-1', 'instance-a', 1);
    await flushed();
    routing.uplinkOpened('SIM0000001');
    routing.uplinkOpened('SIM0000002');
    routing.uplinkClosed('SIM0000001');
    routing.uplinkClosed('SIM0000003');
    routing.uplinkOpened('SIM0000003');
    await pool.answer();
    expect(pool.statements).toHaveLength(2);
    const [, batch] = pool.statements;
    expect(batch.params[2]).toEqual(['SIM0000002', 'SIM0000003']);
    expect(batch.params[3]).toEqual(['SIM0000001']);
  });

  it('keeps a control link write between the uplink changes before and after it', async () => {
    const pool = new HeldPool();
    const routing = routingOn(pool);
    routing.controlClosed('shard-0');
    await flushed();
    routing.uplinkOpened('SIM0000001');
    routing.controlOpened('shard-1', 'instance-a', 1);
    routing.uplinkClosed('SIM0000001');
    await pool.answer();
    await pool.answer();
    await pool.answer();
    const kinds = pool.statements.map(({ sql, params }) =>
      sql.includes('terminal_uplinks')
        ? `uplinks +${String(params[2])} -${String(params[3])}`
        : sql.split(' ')[0],
    );
    expect(kinds).toEqual(['DELETE', 'uplinks +SIM0000001 -', 'INSERT', 'uplinks + -SIM0000001']);
  });
});
