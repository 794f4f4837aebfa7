import type { DataSource, DataSourceOptions } from 'typeorm';
import type { DatabaseNotes } from './store-adapter';
import { storeOf } from './stores';

/** Notes nobody reads: for a data source opened outside an app (tests, benchmarks). */
const UNHEARD: DatabaseNotes = { log: () => undefined, warn: () => undefined };

export { MIGRATION_LOCK_KEY } from './postgres/open-postgres';

/**
 * A data source, initialized and migrated, as its store opens one (PostgreSQL: migrations under
 * an advisory lock, see openPostgres).
 */
export function openDataSource(
  options: DataSourceOptions,
  notes: DatabaseNotes = UNHEARD,
): Promise<DataSource> {
  return storeOf(options).open(options, notes);
}
