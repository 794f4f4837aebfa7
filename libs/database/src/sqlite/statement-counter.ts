import { writeFileSync } from 'node:fs';
import type sqlite3 from 'sqlite3';
import { PeriodicTask } from '@tps/background';

/** How often the statement count is written to its file. */
const COUNT_WRITE_MS = 100;

/**
 * Bench-only (SQL_STATEMENT_COUNT_FILE=<path>): counts every statement SQLite starts on the app's
 * connections, and keeps the count written in that file (a number, rewritten every 100 ms). A
 * file, not a signal: NestJS's shutdown hooks take SIGUSR2 as a stop.
 */
export class StatementCounter {
  private count = 0;

  private readonly writes = new PeriodicTask({
    name: 'statement-count',
    everyMs: COUNT_WRITE_MS,
    run: () => this.write(),
  });
  private readonly writeAtExit = (): void => this.write();

  constructor(private readonly file: string) {
    this.writes.start();
    process.once('exit', this.writeAtExit);
  }

  write(): void {
    writeFileSync(this.file, String(this.count));
  }

  stop(): void {
    void this.writes.stop();
    process.off('exit', this.writeAtExit);
  }

  watch(database: sqlite3.Database): void {
    // SQLite also traces each trigger it fires ("-- TRIGGER name"), which is no statement of ours.
    database.on('trace', (sql: string) => {
      if (!sql.startsWith('-- ')) this.count++;
    });
  }
}

const countFile = process.env.SQL_STATEMENT_COUNT_FILE;

/** The app's counter, when the bench asked for one. */
export const statementCounter =
  countFile === undefined || countFile === '' ? undefined : new StatementCounter(countFile);
