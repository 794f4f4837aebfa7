import { CannotExecuteNotConnectedError, type EntityManager, type QueryResult } from 'typeorm';
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

/** A statement on the manager's connection (its transaction's, if any), with its row count. */
async function structuredQuery(
  manager: EntityManager,
  text: string | NamedStatement,
  params: readonly SqlValue[],
): Promise<QueryResult> {
  // TypeORM hands the statement to the driver as it is: node-postgres takes `{ name, text }` too.
  const query = text as string;
  if (manager.queryRunner !== undefined) return manager.queryRunner.query(query, [...params], true);
  const runner = manager.connection.createQueryRunner();
  try {
    return await runner.query(query, [...params], true);
  } finally {
    await runner.release();
  }
}

/** A statement node-postgres prepares once per connection under its name, then only binds. */
interface NamedStatement {
  name: string;
  text: string;
}

/**
 * The fixed statements of the hot path, named: the server parses and plans each once per
 * connection instead of at every execution. Texts made from a list's length (`IN (?, ?, …)`)
 * would name without end, so past this many the rest go unnamed.
 */
const MAX_NAMED = 256;
const named = new Map<string, NamedStatement>();

function namedStatement(text: string): string | NamedStatement {
  let statement = named.get(text);
  if (statement === undefined) {
    if (named.size >= MAX_NAMED) return text;
    statement = { name: `tps_${named.size + 1}`, text };
    named.set(text, statement);
  }
  return statement;
}

/** PostgreSQL (or another TypeORM driver): the same SQL through `manager.query`, with numbered placeholders. */
function portableSql(manager: EntityManager): Sql {
  const numbered = manager.connection.driver.options.type === 'postgres';
  const textOf = (text: string): string | NamedStatement => {
    if (!numbered) return text;
    let n = 0;
    return namedStatement(text.replace(/\?/g, () => `$${++n}`));
  };
  return {
    run: async (text, params) => {
      // The structured result counts the rows of every command (an INSERT … ON CONFLICT DO NOTHING
      // too); the plain one counts only an UPDATE's or a DELETE's.
      const result = await structuredQuery(manager, textOf(text), params);
      return result.affected ?? 0;
    },
    all: async <T>(text: string, params: readonly SqlValue[]) => {
      const result = await structuredQuery(manager, textOf(text), params);
      return result.records as T[];
    },
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
