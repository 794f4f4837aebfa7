import { DataSource, MigrationExecutor, type DataSourceOptions } from 'typeorm';
import { directUrlOf, waitsOf } from '../data-source-options';
import type { DatabaseNotes } from '../store-adapter';
import type { DatabaseWaits } from '../database-wait-settings';
import { guardPoolErrors } from './pool-error-guard';
import { keepsSessions } from './session-check';
import { pooledWaitsOf, pooledWaitsVerdict, setRoleWaits, type RoleDefaults } from './role-waits';

/**
 * The advisory lock every process takes around its migrations on PostgreSQL: one key for all
 * apps, so that replicas and simulators started together on one database migrate one at a time.
 */
export const MIGRATION_LOCK_KEY = 1_795_336_100;
/** How often a process waiting for another's migrations asks for the lock again. */
const LOCK_RETRY_MS = 100;

/**
 * A data source, initialized and migrated. On PostgreSQL the migrations run under an advisory
 * lock on one connection: several processes started at once on an empty database would each
 * create the tables otherwise; under the lock the first runs them and the rest find them run.
 * The lock is a session's, so a process that dies while migrating gives it back with its
 * connection.
 *
 * Given a direct URL beside a pooler's (DatabaseSettings.directUrl), the migrations run on a
 * connection of their own to it, and the pooled connections are left to the work. The pooler
 * refuses the statement and lock timeouts as startup parameters: under the same lock they are
 * made the role's defaults in the database (setRoleWaits), and a pooled connection then shows
 * whether they hold (pooledWaitsVerdict: refused at start where they cannot). Without one,
 * a URL whose connections do not keep their server session (a pooler in transaction mode) is
 * refused: the lock, and the LISTEN of the service's messages, would be lost on it.
 */
export async function openPostgres(options: DataSourceOptions, notes: DatabaseNotes): Promise<DataSource> {
  if (options.type !== 'postgres' || options.migrationsRun !== true) {
    return guarded(await new DataSource(options).initialize());
  }
  const transaction = options.migrationsTransactionMode ?? 'all';
  const directUrl = directUrlOf(options);
  const waits = waitsOf(options);
  let roleDefaults: RoleDefaults | undefined;
  if (directUrl === undefined) {
    await refuseTransactionPooler(options.url, options.applicationName);
  } else {
    const direct = guarded(
      await new DataSource({
        ...options,
        url: directUrl,
        poolSize: 1,
        migrationsRun: false,
      }).initialize(),
    );
    try {
      await migrateUnderLock(direct, transaction, async (query) => {
        if (waits !== undefined) roleDefaults = await setRoleWaits(query, waits);
      });
    } finally {
      await direct.destroy();
    }
  }
  const dataSource = guarded(await new DataSource({ ...options, migrationsRun: false }).initialize());
  try {
    if (directUrl === undefined) await migrateUnderLock(dataSource, transaction);
    else if (waits !== undefined && roleDefaults !== undefined)
      await checkPooledWaits(dataSource, waits, roleDefaults, notes);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/** The data source, its pool's connections each heard when they fail (guardPoolErrors). */
function guarded(dataSource: DataSource): DataSource {
  guardPoolErrors(dataSource);
  return dataSource;
}

/** Refuses a pooled path whose statements would be unbounded, and tells other values (pooledWaitsVerdict). */
async function checkPooledWaits(
  dataSource: DataSource,
  waits: DatabaseWaits,
  set: RoleDefaults,
  notes: DatabaseNotes,
): Promise<void> {
  if (set.error === undefined) {
    // The role's defaults stay after this process: said once, where the operator looks.
    notes.log(
      `statement_timeout ${waits.statementTimeoutMs} ms and lock_timeout ${waits.lockTimeoutMs} ms are ` +
        `the defaults of role "${set.role}" in database "${set.database}", for the pooled connections`,
    );
  }
  const verdict = pooledWaitsVerdict(waits, await pooledWaitsOf(dataSource), set);
  if (verdict.kind === 'refuse') throw new Error(verdict.message);
  if (verdict.kind === 'warn') notes.warn(verdict.message);
}

async function refuseTransactionPooler(url: string | undefined, applicationName?: string): Promise<void> {
  if (url === undefined || (await keepsSessions(url, applicationName)) !== false) return;
  throw new Error(
    'the database URL does not keep a server session per connection (a pooler in transaction mode, ' +
      'PgBouncer with pool_mode = transaction): give the direct URL of the same database in ' +
      'DATABASE_DIRECT_URL, for the migrations and the LISTEN that need one session, or use session mode',
  );
}

/** `alsoUnderLock`: what else runs on the lock's connection while it is held, after the migrations. */
async function migrateUnderLock(
  dataSource: DataSource,
  transaction: NonNullable<DataSourceOptions['migrationsTransactionMode']>,
  alsoUnderLock?: (query: (sql: string) => Promise<unknown>) => Promise<void>,
): Promise<void> {
  // The lock and the migrations share one connection: a pool of one would deadlock otherwise.
  const runner = dataSource.createQueryRunner();
  try {
    // Polled rather than waited on: a blocking wait could outlast the client's statement timeout.
    while (!(await tryLock(runner.query.bind(runner)))) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = transaction;
      await executor.executePendingMigrations();
      await alsoUnderLock?.((sql) => runner.query(sql));
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

async function tryLock(query: (sql: string, parameters: unknown[]) => Promise<unknown>): Promise<boolean> {
  const rows = (await query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])) as Array<{
    locked: boolean;
  }>;
  return rows[0]?.locked === true;
}
