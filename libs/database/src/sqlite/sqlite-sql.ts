import { CannotExecuteNotConnectedError, type DataSource, type EntityManager } from 'typeorm';
import type { AbstractSqliteDriver } from 'typeorm/driver/sqlite-abstract/AbstractSqliteDriver';
import { oneByOne, portableSql } from '../portable-sql';
import { PreparedDatabase } from '../prepared-sqlite';
import type { Sql } from '../sql';

/** The data source's SQLite connection, as its driver publishes it (undefined while closed). */
export function sqliteConnectionOf(dataSource: DataSource): unknown {
  const connection: unknown = (dataSource.driver as AbstractSqliteDriver).databaseConnection;
  return connection;
}

function connectionOf(manager: EntityManager): PreparedDatabase {
  const databaseConnection = sqliteConnectionOf(manager.connection);
  // The writer closed the connection to reopen it, and could not yet: a storage failure.
  if (!(databaseConnection instanceof PreparedDatabase)) {
    throw new CannotExecuteNotConnectedError(manager.connection.name);
  }
  return databaseConnection;
}

/**
 * SQLite's Sql: prepared once per connection and kept (PreparedDatabase). A data source opened
 * without this library's driver (dataSourceOptions) has plain connections: TypeORM's queries then.
 */
export function sqliteSqlOf(manager: EntityManager): Sql {
  const databaseConnection = sqliteConnectionOf(manager.connection);
  if (databaseConnection !== undefined && !(databaseConnection instanceof PreparedDatabase)) {
    return portableSql(manager);
  }
  const sql: Sql = {
    run: (text, params) => connectionOf(manager).runPrepared(text, params),
    all: (text, params) => connectionOf(manager).allPrepared(text, params),
    together: (statements) => oneByOne(sql, statements),
    script: (text) => connectionOf(manager).script(text),
  };
  return sql;
}
