import { randomBytes } from 'node:crypto';
import { API_MIGRATIONS, SecretKeyring, installSecretKeyring } from '@tps/database';
import { openTestDatabase, type TestDatabase } from '@tps/database/testing';
import { API_ENTITIES } from '../api-entities';

export type ApiDatabase = TestDatabase;

/** The service's store on a real SQLite file of its own, migrated, for a unit test. */
export function openApiDatabase(): Promise<ApiDatabase> {
  // Merchant secrets are sealed at rest, as the service does with its own keyring.
  installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
  return openTestDatabase('api', { entities: API_ENTITIES, migrations: API_MIGRATIONS });
}
