import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { API_MIGRATIONS, PreparedDatabase, dataSourceOptions } from '@tps/database';
import { API_ENTITIES } from '../api-entities';

/** The service's store on a real SQLite file of its own, migrated, for a unit test. */
export interface ApiDatabase {
  dataSource: DataSource;
  /** Calls `listener` with each statement SQLite starts on the connection. */
  onStatement(listener: (sql: string) => void): void;
  /** Closes the connection and removes the file. */
  close(): Promise<void>;
}

export async function openApiDatabase(): Promise<ApiDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-api-store-'));
  const dataSource = new DataSource(
    dataSourceOptions({
      url: `sqlite:${join(dir, 'api.sqlite')}`,
      entities: API_ENTITIES,
      migrations: API_MIGRATIONS,
    }),
  );
  await dataSource.initialize();
  return {
    dataSource,
    onStatement: (listener) => {
      const connection = (dataSource.driver as unknown as { databaseConnection: PreparedDatabase })
        .databaseConnection;
      connection.on('trace', listener);
    },
    close: async () => {
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
