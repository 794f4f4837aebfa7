import type { DataSource, DataSourceOptions } from 'typeorm';
import { storeOf } from './stores';

export { MIGRATION_LOCK_KEY } from './postgres/open-postgres';

/**
 * A data source, initialized and migrated, as its store opens one (PostgreSQL: migrations under
 * an advisory lock, see openPostgres).
 */
export function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  return storeOf(options).open(options);
}
