import { pooledWaitsVerdict, type PooledWaits, type RoleDefaults } from './role-waits';

const WANTED = { acquireTimeoutMs: 3000, statementTimeoutMs: 10_000, lockTimeoutMs: 5000 };
const SET: RoleDefaults = { role: 'tps', database: 'payments' };

function pooled(statementTimeoutMs: number, lockTimeoutMs: number, role = 'tps'): PooledWaits {
  return { role, database: 'payments', statementTimeoutMs, lockTimeoutMs };
}

describe('pooledWaitsVerdict: whether the pooled sessions are bounded as the settings say', () => {
  it('holds when the pooled session has the settings', () => {
    expect(pooledWaitsVerdict(WANTED, pooled(10_000, 5000), SET)).toEqual({ kind: 'holds' });
  });

  it("tells, without refusing, a pooled session that predates the role's defaults", () => {
    const verdict = pooledWaitsVerdict(WANTED, pooled(0, 0), SET);
    expect(verdict.kind).toBe('warn');
    expect(verdict).toMatchObject({ message: expect.stringMatching(/opened before[\s\S]*server_lifetime/) });
    expect(pooledWaitsVerdict(WANTED, pooled(20_000, 5000), SET).kind).toBe('warn');
  });

  it('refuses unbounded pooled sessions whose role the start could not set, and says what to run', () => {
    const verdict = pooledWaitsVerdict(WANTED, pooled(10_000, 0), { ...SET, error: 'permission denied' });
    expect(verdict.kind).toBe('refuse');
    expect(verdict).toMatchObject({
      message: expect.stringContaining(
        'ALTER ROLE "tps" IN DATABASE "payments" SET statement_timeout = 10000; ' +
          'ALTER ROLE "tps" IN DATABASE "payments" SET lock_timeout = 5000',
      ),
    });
    expect(verdict).toMatchObject({ message: expect.stringContaining('permission denied') });
  });

  it('refuses unbounded pooled sessions of another role than the direct URL', () => {
    const verdict = pooledWaitsVerdict(WANTED, pooled(0, 0, 'pool "user"'), SET);
    expect(verdict.kind).toBe('refuse');
    expect(verdict).toMatchObject({
      message: expect.stringContaining('ALTER ROLE "pool ""user""" IN DATABASE'),
    });
  });

  it('tells, without refusing, bounds that others set where the start could not', () => {
    const verdict = pooledWaitsVerdict(WANTED, pooled(30_000, 1000), { ...SET, error: 'permission denied' });
    expect(verdict.kind).toBe('warn');
  });
});
