import { API_MIGRATIONS } from '@tps/database';
import { openTestDatabase, type TestDatabase } from '@tps/database/testing';
import { API_ENTITIES } from '../api-entities';

export type ApiDatabase = TestDatabase;

/** The service's store on a real SQLite file of its own, migrated, for a unit test. */
export function openApiDatabase(): Promise<ApiDatabase> {
  return openTestDatabase('api', { entities: API_ENTITIES, migrations: API_MIGRATIONS });
}
