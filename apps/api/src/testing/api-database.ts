import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  API_MIGRATIONS,
  SecretKeyring,
  dataSourceOptions,
  installSecretKeyring,
  closeDataSource,
} from '@tps/database';
import { StatementLog, openTestDatabase, type TestDatabase } from '@tps/database/testing';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../api-entities';

export type ApiDatabase = TestDatabase;

/** The service's store on a real SQLite file of its own, migrated, for a unit test. */
export function openApiDatabase(): Promise<ApiDatabase> {
  // Merchant secrets are sealed at rest, as the service does with its own keyring.
  installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
  return openTestDatabase('api', { entities: API_ENTITIES, migrations: API_MIGRATIONS });
}

/** The service's store on a PostgreSQL database of its own, migrated, every statement it sends logged. */
export interface ApiPostgres {
  dataSource: DataSource;
  log: StatementLog;
  url: string;
  close(): Promise<void>;
}

export async function openApiPostgres(poolSize: number): Promise<ApiPostgres> {
  installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
  const dir = mkdtempSync(join(tmpdir(), 'tps-api-pg-'));
  const store = new TestStore('postgres', dir);
  const url = await store.url('api');
  const log = new StatementLog();
  const dataSource = new DataSource({
    ...dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize }),
    logging: ['query'],
    logger: log,
  });
  await dataSource.initialize();
  return {
    dataSource,
    log,
    url,
    close: async () => {
      await closeDataSource(dataSource);
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
