import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions, type DatabaseSettings } from '../data-source-options';
import { sqliteConnectionOf } from '../sqlite/sqlite-sql';

/** An app's store on a real SQLite file of its own, migrated, for a unit test. */
export interface TestDatabase {
  dataSource: DataSource;
  /** Calls `listener` with each statement SQLite starts on the connection. */
  onStatement(listener: (sql: string) => void): void;
  /**
   * Resolves once every statement SQLite started before the call has reached the listeners:
   * SQLite reports each one to the main thread on its own, in order, so a marker statement that
   * comes back means all before it did. The marker itself is not passed on.
   */
  statementsSettled(): Promise<void>;
  /** Closes the connection and removes the file. */
  close(): Promise<void>;
}

/** Opens `<name>.sqlite` in a fresh temporary folder, with the app's entities and migrations. */
export async function openTestDatabase(
  name: string,
  schema: Pick<DatabaseSettings, 'entities' | 'migrations'>,
): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `tps-${name}-store-`));
  const dataSource = new DataSource(
    dataSourceOptions({ url: `sqlite:${join(dir, `${name}.sqlite`)}`, ...schema }),
  );
  await dataSource.initialize();
  const listeners: Array<(sql: string) => void> = [];
  const markers = new Map<string, () => void>();
  const connection = sqliteConnectionOf(dataSource);
  if (connection === undefined) throw new Error('the test database has no SQLite connection');
  // One listener on the connection for all: node-sqlite3 turns its trace hook off again when
  // a second 'trace' listener is added.
  connection.on('trace', (sql: string) => {
    const marker = markers.get(sql);
    if (marker === undefined) listeners.forEach((each) => each(sql));
    else marker();
  });
  let lastMarker = 0;
  return {
    dataSource,
    onStatement: (listener) => listeners.push(listener),
    statementsSettled: async () => {
      lastMarker += 1;
      const marker = `SELECT 'statements settled ${lastMarker}'`;
      const reported = new Promise<void>((resolve) => markers.set(marker, resolve));
      await new Promise<void>((resolve, reject) =>
        connection.get(marker, (error: Error | null) => (error ? reject(error) : resolve())),
      );
      await reported;
      markers.delete(marker);
    },
    close: async () => {
      await closeDataSource(dataSource);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
