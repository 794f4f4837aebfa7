import type sqlite3 from 'sqlite3';
import { CannotExecuteNotConnectedError } from 'typeorm';
import type { SqlValue } from '../sql';

/**
 * The statements of one SQLite connection, prepared once and kept: a hot statement is then one
 * trip to the libuv pool (bind and step) instead of three (prepare, step, finalize), and SQLite
 * does not parse it again. A kept statement keeps SQLite from closing the connection
 * (node-sqlite3 closes with sqlite3_close, which fails while one is not finalized): `finalize`
 * must end them first, as closeDataSource does.
 */
export class PreparedStatements {
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
  /** Set by finalize(): a statement prepared after it would keep SQLite from closing. */
  private closing = false;

  constructor(private readonly connection: sqlite3.Database) {}

  /** Runs a statement that returns no rows; resolves the number of rows it changed. */
  run(sql: string, params: readonly SqlValue[]): Promise<number> {
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
  all<T>(sql: string, params: readonly SqlValue[]): Promise<T[]> {
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
   * each other at once, cheaper than a trip and a turn of the main thread each. Nothing is kept.
   */
  script(sql: string): Promise<void> {
    if (this.closing) return Promise.reject(new CannotExecuteNotConnectedError('default'));
    return new Promise((resolve, reject) => {
      this.connection.exec(sql, (error: Error | null) => {
        if (error === null) resolve();
        else reject(error);
      });
    });
  }

  /**
   * Finalizes every kept statement (each once its run under way, if any, has ended) and refuses
   * new ones from now on: the connection may then close.
   */
  async finalize(): Promise<void> {
    this.closing = true;
    const preparing = [...this.prepared.values()];
    this.prepared.clear();
    const results = await Promise.allSettled(preparing);
    const statements = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    await Promise.all(
      statements.map((statement) => new Promise<void>((resolve) => statement.finalize(() => resolve()))),
    );
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

  /**
   * The statement, once prepared. A run is queued only on a statement that prepared: the binding
   * calls back no run queued on one that failed (it finalizes it and emits an error instead).
   */
  private statement(key: string, sql: string): Promise<sqlite3.Statement> {
    if (this.closing) return Promise.reject(new CannotExecuteNotConnectedError('default'));
    let statement = this.prepared.get(key);
    if (statement === undefined) {
      const prepared = new Promise<sqlite3.Statement>((resolve, reject) => {
        const created: sqlite3.Statement = this.connection.prepare(sql, (error: Error | null) => {
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
