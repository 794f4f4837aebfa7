import sqlite3 from 'sqlite3';
import { PreparedStatements } from './prepared-statements';
import { statementCounter } from './statement-counter';

/** The kept statements of each connection this driver opened. */
const statementsByConnection = new WeakMap<sqlite3.Database, PreparedStatements>();

/**
 * The kept statements of a connection the apps' driver (sqliteDriver) opened; undefined for one
 * opened otherwise, which runs TypeORM's queries only.
 */
export function preparedStatementsOf(connection: sqlite3.Database): PreparedStatements | undefined {
  return statementsByConnection.get(connection);
}

/**
 * Opens a plain node-sqlite3 connection as the apps' connections are: its pragmas queued, its
 * statements kept beside it (preparedStatementsOf). TypeORM calls it with `new` (sqliteDriver):
 * a function that returns an object gives `new` that object.
 */
export function openSqliteConnection(
  filename: string,
  modeOrCallback?: number | ((err: Error | null) => void),
  callback?: (err: Error | null) => void,
): sqlite3.Database {
  const connection =
    typeof modeOrCallback === 'function'
      ? new sqlite3.Database(filename, modeOrCallback)
      : new sqlite3.Database(filename, modeOrCallback, callback);
  // Queued before TypeORM's own pragmas (journal_mode = WAL), which its SQLite options cannot
  // extend: in WAL, NORMAL syncs at checkpoints instead of at every commit. A crash of the process
  // loses nothing committed; a power cut may lose the last commits (docs/contract.md, "Durability").
  connection.run('PRAGMA synchronous = NORMAL', () => undefined);
  // A deleted or replaced row is overwritten with zeros, not left in a free page: a re-sealed
  // secret or a purged row leaves no trace in the file (docs/contract.md, "Secrets at rest").
  connection.run('PRAGMA secure_delete = ON', () => undefined);
  statementCounter?.watch(connection);
  statementsByConnection.set(connection, new PreparedStatements(connection));
  return connection;
}

/**
 * The sqlite3 module as TypeORM's driver: its connections are opened by openSqliteConnection, and
 * `verbose()`, which TypeORM always calls, changes nothing. Verbose mode wraps every statement to
 * capture a long stack trace, a fifth of the API's time under load (BENCHMARKS.md); errors still
 * carry their statement and message.
 */
export const sqliteDriver: object = Object.assign(Object.create(sqlite3) as object, {
  Database: openSqliteConnection,
  verbose: () => sqliteDriver,
});
