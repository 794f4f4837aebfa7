import sqlite3 from 'sqlite3';
import { CannotExecuteNotConnectedError, type DataSource, type EntityManager } from 'typeorm';
import type { AbstractSqliteDriver } from 'typeorm/driver/sqlite-abstract/AbstractSqliteDriver';
import { oneByOne, portableSql } from '../portable-sql';
import type { Sql } from '../sql';
import type { PreparedStatements } from './prepared-statements';
import { preparedStatementsOf } from './sqlite-driver';

/** The data source's SQLite connection, as its driver publishes it (undefined before it opened). */
export function sqliteConnectionOf(dataSource: DataSource): sqlite3.Database | undefined {
  const connection: unknown = (dataSource.driver as AbstractSqliteDriver).databaseConnection;
  return connection instanceof sqlite3.Database ? connection : undefined;
}

/** The kept statements of the data source's connection, if the apps' driver opened it. */
export function sqliteStatementsOf(dataSource: DataSource): PreparedStatements | undefined {
  const connection = sqliteConnectionOf(dataSource);
  return connection === undefined ? undefined : preparedStatementsOf(connection);
}

function statementsOf(manager: EntityManager): PreparedStatements {
  const statements = sqliteStatementsOf(manager.connection);
  // Closed (closeDataSource), or the writer closed it to reopen it and could not yet: a storage failure.
  if (statements === undefined || !manager.connection.isInitialized) {
    throw new CannotExecuteNotConnectedError(manager.connection.name);
  }
  return statements;
}

/**
 * SQLite's Sql: prepared once per connection and kept (PreparedStatements). A connection opened
 * without this library's driver (dataSourceOptions) keeps no statements: TypeORM's queries then.
 */
export function sqliteSqlOf(manager: EntityManager): Sql {
  const connection = sqliteConnectionOf(manager.connection);
  if (connection !== undefined && preparedStatementsOf(connection) === undefined) {
    return portableSql(manager);
  }
  const sql: Sql = {
    run: (text, params) => statementsOf(manager).run(text, params),
    all: (text, params) => statementsOf(manager).all(text, params),
    together: (statements) => oneByOne(sql, statements),
    script: (text) => statementsOf(manager).script(text),
  };
  return sql;
}
