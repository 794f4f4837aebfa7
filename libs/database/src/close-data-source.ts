import type { DataSource } from 'typeorm';
import { storeOf } from './stores';

/**
 * Closes a data source, if it is open, as its store must be closed (StoreAdapter.close: on SQLite
 * the connection's kept statements are finalized first). Every close of a data source of this
 * library's options goes through here: TypeORM's `destroy` alone fails on a SQLite connection
 * with kept statements (SQLITE_BUSY), and leaves its file open.
 */
export async function closeDataSource(dataSource: DataSource): Promise<void> {
  if (dataSource.isInitialized) await storeOf(dataSource.options).close(dataSource);
}
