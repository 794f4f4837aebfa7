import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TERMINAL_MIGRATIONS, dataSourceOptions } from '@tps/database';
import { TerminalPrintJobEntity } from '../../printer/terminal-print-job.entity';
import { TerminalEventEntity } from '../terminal-event.entity';
import { TerminalTransactionEntity } from '../terminal-transaction.entity';

/** The simulator's store on a real SQLite file of its own, migrated, for a unit test. */
export interface TerminalDatabase {
  dataSource: DataSource;
  /** Closes the connection and removes the file. */
  close(): Promise<void>;
}

export async function openTerminalDatabase(): Promise<TerminalDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-terminal-store-'));
  const dataSource = new DataSource(
    dataSourceOptions({
      url: `sqlite:${join(dir, 'terminal.sqlite')}`,
      entities: [TerminalTransactionEntity, TerminalEventEntity, TerminalPrintJobEntity],
      migrations: TERMINAL_MIGRATIONS,
    }),
  );
  await dataSource.initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
