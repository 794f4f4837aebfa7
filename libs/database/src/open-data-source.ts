import { DataSource, MigrationExecutor, type DataSourceOptions } from 'typeorm';

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
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  if (options.type !== 'postgres' || options.migrationsRun !== true) {
    return new DataSource(options).initialize();
  }
  const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
  try {
    await migrateUnderLock(dataSource, options.migrationsTransactionMode ?? 'all');
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

async function migrateUnderLock(
  dataSource: DataSource,
  transaction: NonNullable<DataSourceOptions['migrationsTransactionMode']>,
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
