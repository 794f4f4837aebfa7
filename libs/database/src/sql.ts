import { CannotExecuteNotConnectedError, type EntityManager } from 'typeorm';
import { PreparedDatabase, type SqlValue } from './prepared-sqlite';

/** Fixed SQL with `?` placeholders, run on the manager's connection (inside its write, if any). */
export interface Sql {
  /** A statement that returns no rows; resolves how many rows it changed. */
  run(text: string, params: readonly SqlValue[]): Promise<number>;
  all<T>(text: string, params: readonly SqlValue[]): Promise<T[]>;
  /** Statements without parameters, separated by `;`, run in order; stops at the first that fails. */
  script(text: string): Promise<void>;
}

function connectionOf(manager: EntityManager): PreparedDatabase {
  const { databaseConnection } = manager.connection.driver as unknown as {
    databaseConnection: PreparedDatabase | undefined;
  };
  // The write queue closed the connection to reopen it, and could not yet: a storage failure.
  if (databaseConnection === undefined) throw new CannotExecuteNotConnectedError(manager.connection.name);
  return databaseConnection;
}

/** SQLite: prepared once per connection and kept (PreparedDatabase). */
function preparedSql(manager: EntityManager): Sql {
  return {
    run: (text, params) => connectionOf(manager).runPrepared(text, params),
    all: (text, params) => connectionOf(manager).allPrepared(text, params),
    script: (text) => connectionOf(manager).script(text),
  };
}

/**
 * Any other TypeORM driver: the same SQL through `manager.query`, with PostgreSQL's numbered
 * placeholders. The embedded SQLite is what the tests run; this keeps other drivers possible.
 */
function portableSql(manager: EntityManager): Sql {
  const numbered = manager.connection.driver.options.type === 'postgres';
  const textOf = (text: string): string => {
    let n = 0;
    return numbered ? text.replace(/\?/g, () => `$${++n}`) : text;
  };
  return {
    run: async (text, params) => {
      const result: unknown = await manager.query(textOf(text), [...params]);
      // PostgreSQL answers an UPDATE or DELETE as [rows, affected]; MySQL with affectedRows.
      if (Array.isArray(result) && typeof result[1] === 'number') return result[1];
      const affected = (result as { affectedRows?: unknown } | null)?.affectedRows;
      return typeof affected === 'number' ? affected : 0;
    },
    all: <T>(text: string, params: readonly SqlValue[]) => manager.query<T[]>(textOf(text), [...params]),
    script: async (text) => {
      for (const statement of text.split(';').map((part) => part.trim())) {
        if (statement !== '') await manager.query(statement);
      }
    },
  };
}

export function sqlOf(manager: EntityManager): Sql {
  const { driver } = manager.connection;
  if (driver.options.type !== 'sqlite') return portableSql(manager);
  const { databaseConnection } = driver as unknown as { databaseConnection: unknown };
  // A data source opened without this library's driver (dataSourceOptions) has plain connections.
  const plain = databaseConnection !== undefined && !(databaseConnection instanceof PreparedDatabase);
  return plain ? portableSql(manager) : preparedSql(manager);
}
