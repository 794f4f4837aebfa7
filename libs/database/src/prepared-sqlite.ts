import { writeFileSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { PeriodicTask } from '@tps/background';
import { CannotExecuteNotConnectedError } from 'typeorm';

/** What a statement may be bound to. */
export type SqlValue = string | number | null | Buffer;

/**
 * TypeORM's SQLite connection, able to run statements prepared once and kept: a hot statement is
 * then one trip to the libuv pool (bind and step) instead of three (prepare, step, finalize), and
 * SQLite does not parse it again. The statements are finalized before the connection closes,
 * which SQLite requires of a close.
 */
export class PreparedDatabase extends sqlite3.Database {
  /**
   * Each statement once prepared, under its text, and any further copy under the text and its
   * number (copies). One that failed to prepare is forgotten, and tried again.
   */
  private readonly prepared = new Map<string, Promise<sqlite3.Statement>>();
  /**
   * For each text, which of its copies has a run under way. node-sqlite3 runs one statement
   * object at a time and starts the next run of it only from the main thread, once the last one
   * has called back; a second copy lets writes that share a batch (SerialWriter's keys) take the
   * same statement at the same time.
   */
  private readonly busy = new Map<string, boolean[]>();
  /** Set by close(): a statement prepared after it would keep SQLite from closing. */
  private closing = false;

  constructor(
    filename: string,
    modeOrCallback?: number | ((err: Error | null) => void),
    callback?: (err: Error | null) => void,
  ) {
    if (typeof modeOrCallback === 'function') super(filename, modeOrCallback);
    else super(filename, modeOrCallback, callback);
    // Queued before TypeORM's own pragmas (journal_mode = WAL): in WAL, NORMAL syncs at checkpoints
    // instead of at every commit. A crash of the process loses nothing committed; a power cut may
    // lose the last commits (docs/contract.md, "Durability").
    this.run('PRAGMA synchronous = NORMAL', () => undefined);
    // A deleted or replaced row is overwritten with zeros, not left in a free page: a re-sealed
    // secret or a purged row leaves no trace in the file (docs/contract.md, "Secrets at rest").
    this.run('PRAGMA secure_delete = ON', () => undefined);
    statementCounter?.watch(this);
  }

  /** Runs a statement that returns no rows; resolves the number of rows it changed. */
  runPrepared(sql: string, params: readonly SqlValue[]): Promise<number> {
    return this.withStatement(
      sql,
      (statement, done) =>
        new Promise((resolve, reject) => {
          statement.run(params, function (this: sqlite3.RunResult, error: Error | null) {
            done();
            if (error === null) resolve(this.changes);
            else reject(error);
          });
        }),
    );
  }

  /**
   * Every row of a query. Always read to the end (never `get`): a statement left half-read keeps
   * its read snapshot open on its connection, and holds back the log's checkpoint.
   */
  allPrepared<T>(sql: string, params: readonly SqlValue[]): Promise<T[]> {
    return this.withStatement(
      sql,
      (statement, done) =>
        new Promise((resolve, reject) => {
          statement.all(params, (error: Error | null, rows: T[]) => {
            done();
            if (error === null) resolve(rows);
            else reject(error);
          });
        }),
    );
  }

  /**
   * Several statements without parameters, in order, in one trip through the pool; stops at the
   * first that fails. SQLite parses them each time: for short fixed statements that must follow
   * each other at once, cheaper than a trip and a turn of the main thread each.
   */
  script(sql: string): Promise<void> {
    if (this.closing) return Promise.reject(new CannotExecuteNotConnectedError('default'));
    return new Promise((resolve, reject) => {
      this.exec(sql, (error: Error | null) => {
        if (error === null) resolve();
        else reject(error);
      });
    });
  }

  /** Runs `use` on a copy of the statement that no run holds; `done` frees it. */
  private async withStatement<T>(
    sql: string,
    use: (statement: sqlite3.Statement, done: () => void) => Promise<T>,
  ): Promise<T> {
    let copies = this.busy.get(sql);
    if (copies === undefined) {
      copies = [];
      this.busy.set(sql, copies);
    }
    let copy = copies.indexOf(false);
    if (copy < 0) copy = copies.push(false) - 1;
    copies[copy] = true;
    const done = (): void => {
      copies[copy] = false;
    };
    let statement: sqlite3.Statement;
    try {
      statement = await this.statement(copy === 0 ? sql : `${sql}\u0000${copy}`, sql);
    } catch (error) {
      done();
      throw error;
    }
    return use(statement, done);
  }

  override close(callback?: (err: Error | null) => void): void {
    this.closing = true;
    const preparing = [...this.prepared.values()];
    this.prepared.clear();
    void Promise.allSettled(preparing).then((results) => {
      const statements = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      let left = statements.length;
      if (left === 0) {
        super.close(callback);
        return;
      }
      for (const statement of statements) {
        statement.finalize(() => {
          if (--left === 0) super.close(callback);
        });
      }
    });
  }

  /**
   * The statement, once prepared. A run is queued only on a statement that prepared: the binding
   * calls back no run queued on one that failed (it finalizes it and emits an error instead).
   */
  private statement(key: string, sql: string): Promise<sqlite3.Statement> {
    if (this.closing) return Promise.reject(new CannotExecuteNotConnectedError('default'));
    let statement = this.prepared.get(key);
    if (statement === undefined) {
      const prepared = new Promise<sqlite3.Statement>((resolve, reject) => {
        const created: sqlite3.Statement = this.prepare(sql, (error: Error | null) => {
          if (error === null) {
            resolve(created);
            return;
          }
          if (this.prepared.get(key) === prepared) this.prepared.delete(key);
          reject(error);
        });
      });
      this.prepared.set(key, prepared);
      statement = prepared;
    }
    return statement;
  }
}

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
const statementCounter =
  countFile === undefined || countFile === '' ? undefined : new StatementCounter(countFile);

/**
 * The sqlite3 module as TypeORM's driver: its connections are PreparedDatabase, and `verbose()`,
 * which TypeORM always calls, changes nothing. Verbose mode wraps every statement to capture a long
 * stack trace, a fifth of the API's time under load (BENCHMARKS.md); errors still carry their
 * statement and message.
 */
export const preparedSqlite3: typeof sqlite3 = Object.assign(Object.create(sqlite3) as typeof sqlite3, {
  Database: PreparedDatabase,
  verbose: () => preparedSqlite3,
});
