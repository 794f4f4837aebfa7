import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { TERMINAL_MIGRATIONS, closeDataSource, dataSourceOptions, openDataSource } from '@tps/database';
import { openTestDatabase, type TestDatabase } from '@tps/database/testing';
import { TestStore, type StoreKind } from '@tps/testing';
import { TerminalPrintJobEntity } from '../../printer/terminal-print-job.entity';
import { TerminalEventEntity } from '../terminal-event.entity';
import { TerminalTransactionEntity } from '../terminal-transaction.entity';

export type TerminalDatabase = TestDatabase;

const ENTITIES = [TerminalTransactionEntity, TerminalEventEntity, TerminalPrintJobEntity];

/** The simulator's store on a real SQLite file of its own, migrated, for a unit test. */
export function openTerminalDatabase(): Promise<TerminalDatabase> {
  return openTestDatabase('terminal', { entities: ENTITIES, migrations: TERMINAL_MIGRATIONS });
}

/** The simulator's store, migrated, on a SQLite file or a PostgreSQL database of its own. */
export async function openTerminalStore(
  kind: StoreKind,
): Promise<{ dataSource: DataSource; close(): Promise<void> }> {
  if (kind === 'sqlite') return openTerminalDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'tps-terminal-pg-'));
  const store = new TestStore('postgres', dir);
  const dataSource = await openDataSource(
    dataSourceOptions({
      url: await store.url('terminal'),
      entities: ENTITIES,
      migrations: TERMINAL_MIGRATIONS,
    }),
  );
  return {
    dataSource,
    close: async () => {
      await closeDataSource(dataSource);
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
