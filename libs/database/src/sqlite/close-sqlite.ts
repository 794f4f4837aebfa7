import type { DataSource } from 'typeorm';
import { sqliteStatementsOf } from './sqlite-sql';

/**
 * Closes a SQLite data source: its connection's kept statements first. node-sqlite3 closes with
 * sqlite3_close, which fails (SQLITE_BUSY) while a statement of the connection is not finalized,
 * and the file then stays open.
 */
export async function closeSqlite(dataSource: DataSource): Promise<void> {
  await sqliteStatementsOf(dataSource)?.finalize();
  await dataSource.destroy();
}
