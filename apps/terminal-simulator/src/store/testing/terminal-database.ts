import { TERMINAL_MIGRATIONS } from '@tps/database';
import { openTestDatabase, type TestDatabase } from '@tps/database/testing';
import { TerminalPrintJobEntity } from '../../printer/terminal-print-job.entity';
import { TerminalEventEntity } from '../terminal-event.entity';
import { TerminalTransactionEntity } from '../terminal-transaction.entity';

export type TerminalDatabase = TestDatabase;

/** The simulator's store on a real SQLite file of its own, migrated, for a unit test. */
export function openTerminalDatabase(): Promise<TerminalDatabase> {
  return openTestDatabase('terminal', {
    entities: [TerminalTransactionEntity, TerminalEventEntity, TerminalPrintJobEntity],
    migrations: TERMINAL_MIGRATIONS,
  });
}
