import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type DatabaseSettings } from '../data-source-options';
import type { PreparedDatabase } from '../prepared-sqlite';

/** An app's store on a real SQLite file of its own, migrated, for a unit test. */
export interface TestDatabase {
  dataSource: DataSource;
  /** Calls `listener` with each statement SQLite starts on the connection. */
  onStatement(listener: (sql: string) => void): void;
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
  return {
    dataSource,
    onStatement: (listener) => {
      // One listener on the connection for all: node-sqlite3 turns its trace hook off again when
      // a second 'trace' listener is added.
      if (listeners.length === 0) {
        const connection = (dataSource.driver as unknown as { databaseConnection: PreparedDatabase })
          .databaseConnection;
        connection.on('trace', (sql: string) => listeners.forEach((each) => each(sql)));
      }
      listeners.push(listener);
    },
    close: async () => {
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
