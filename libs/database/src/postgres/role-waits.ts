import type { DataSource } from 'typeorm';
import type { DatabaseWaits } from '../database-wait-settings';

/** What a session of the pooled path gets from the server: its role, and its two timeouts in ms. */
export interface PooledWaits {
  role: string;
  database: string;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

/** Whose defaults the start set over the direct URL, or why it could not. */
export interface RoleDefaults {
  role: string;
  database: string;
  error?: string;
}

export type PooledWaitsVerdict =
  { kind: 'holds' } | { kind: 'warn'; message: string } | { kind: 'refuse'; message: string };

function whole(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`not a timeout: ${ms}`);
  return Math.floor(ms);
}

/**
 * Makes the statement and lock timeouts the defaults of the direct connection's role in its
 * database (`ALTER ROLE … IN DATABASE … SET`, which an ordinary role may do for itself): every
 * session the server then opens for it, a pooler's included, starts with them, so a statement the
 * pooled path sends alone, outside a transaction, is bounded on the server too. Run under the
 * migrations' lock: two processes altering one role at once could fail on the catalog's row.
 */
export async function setRoleWaits(
  query: (sql: string) => Promise<unknown>,
  waits: DatabaseWaits,
): Promise<RoleDefaults> {
  const [who] = (await query('SELECT current_user AS role, current_database() AS database')) as Array<{
    role: string;
    database: string;
  }>;
  const alter = (name: string, ms: number): string =>
    `EXECUTE format('ALTER ROLE %I IN DATABASE %I SET ${name} = ${whole(ms)}', current_user, current_database());`;
  try {
    await query(
      `DO $$ BEGIN ${alter('statement_timeout', waits.statementTimeoutMs)} ` +
        `${alter('lock_timeout', waits.lockTimeoutMs)} END $$`,
    );
    return who;
  } catch (error) {
    return { ...who, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The role and timeouts of a session of the pooled path, as the server gave them. */
export async function pooledWaitsOf(dataSource: DataSource): Promise<PooledWaits> {
  const [row] = await dataSource.query<
    Array<{ role: string; database: string; statement_ms: number; lock_ms: number }>
  >(
    `SELECT current_user AS role, current_database() AS database,
            (SELECT setting FROM pg_settings WHERE name = 'statement_timeout')::int AS statement_ms,
            (SELECT setting FROM pg_settings WHERE name = 'lock_timeout')::int AS lock_ms`,
  );
  return {
    role: row.role,
    database: row.database,
    statementTimeoutMs: Number(row.statement_ms),
    lockTimeoutMs: Number(row.lock_ms),
  };
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Whether the pooled path's sessions are bounded as the settings say. Unbounded (0) where the
 * start could not set them for that role (not allowed, or the pooler connects as another role) is
 * refused: every statement sent alone would then wait on a lock for as long as it is held,
 * keeping a server connection of the pooler. Other values are told, not refused: a pooler keeps
 * the server sessions it opened before the defaults changed (a first start, a changed setting, a
 * replica of another version beside this one) until it opens new ones, and refusing would stop a
 * rolling deploy.
 */
export function pooledWaitsVerdict(
  wanted: DatabaseWaits,
  pooled: PooledWaits,
  set: RoleDefaults,
): PooledWaitsVerdict {
  const statementMs = whole(wanted.statementTimeoutMs);
  const lockMs = whole(wanted.lockTimeoutMs);
  if (pooled.statementTimeoutMs === statementMs && pooled.lockTimeoutMs === lockMs) return { kind: 'holds' };
  const found =
    `the pooled connections (role ${quoted(pooled.role)} in database ${quoted(pooled.database)}) have ` +
    `statement_timeout ${pooled.statementTimeoutMs} ms and lock_timeout ${pooled.lockTimeoutMs} ms, ` +
    `not DATABASE_STATEMENT_TIMEOUT_MS ${statementMs} and DATABASE_LOCK_TIMEOUT_MS ${lockMs}`;
  const sameRole = pooled.role === set.role && pooled.database === set.database;
  const unbounded = pooled.statementTimeoutMs === 0 || pooled.lockTimeoutMs === 0;
  if (set.error === undefined && sameRole) {
    return {
      kind: 'warn',
      message:
        `${found}: server sessions the pooler opened before the role's defaults changed keep theirs until ` +
        `it opens new ones (PgBouncer's server_lifetime, or RECONNECT on its console); each transaction ` +
        `still sets its own (SET LOCAL)`,
    };
  }
  const why =
    set.error !== undefined
      ? `setting them as the role's defaults over DATABASE_DIRECT_URL failed (${set.error})`
      : `DATABASE_DIRECT_URL connects as role ${quoted(set.role)} in database ${quoted(set.database)}, whose defaults the start set`;
  const target = `ROLE ${quoted(pooled.role)} IN DATABASE ${quoted(pooled.database)}`;
  const remedy =
    `have them set for the pooled role (ALTER ${target} SET statement_timeout = ${statementMs}; ` +
    `ALTER ${target} SET lock_timeout = ${lockMs}), or by the pooler (PgBouncer's connect_query)`;
  if (!unbounded) return { kind: 'warn', message: `${found}: ${why}; ${remedy}` };
  return {
    kind: 'refuse',
    message: `${found}: ${why}. A statement sent outside a transaction would wait on a lock without a bound: ${remedy}`,
  };
}
