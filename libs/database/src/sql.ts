import { CannotExecuteNotConnectedError, type EntityManager, type QueryResult } from 'typeorm';
import { directUrlOf } from './data-source-options';
import { PreparedDatabase, type SqlValue } from './prepared-sqlite';

/** A statement with its parameters, built now and run later (Sql.together). */
export interface Statement {
  text: string;
  params: readonly SqlValue[];
  /**
   * The index, in the same Sql.together, of a statement with no condition of its own: this one
   * changes nothing unless that one changed a row. Its text must end with a FROM and no WHERE
   * (EntityTable.insertingSelect): PostgreSQL gets the condition as its WHERE. SQLite runs the
   * statements in order: this one is skipped when that one ran before it and changed nothing;
   * when that one comes after it, the write must roll back if it changed nothing.
   */
  ifChanged?: number;
}

/** Fixed SQL with `?` placeholders, run on the manager's connection (inside its write, if any). */
export interface Sql {
  /** A statement that returns no rows; resolves how many rows it changed. */
  run(text: string, params: readonly SqlValue[]): Promise<number>;
  all<T>(text: string, params: readonly SqlValue[]): Promise<T[]>;
  /**
   * Statements that change rows (INSERT, UPDATE or DELETE, with no RETURNING clause of their
   * own), in order; resolves how many rows each changed. PostgreSQL takes them as one statement
   * (each a data-modifying WITH), so they cost one trip to the server instead of one each. There
   * they all see the rows as they were before any of them ran, and run in no set order: none may
   * touch a row that another of them inserts or changes.
   */
  together(statements: readonly Statement[]): Promise<number[]>;
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

/** Each statement in turn, where a statement costs no trip to a server (SQLite). */
async function oneByOne(sql: Pick<Sql, 'run'>, statements: readonly Statement[]): Promise<number[]> {
  const counts: number[] = [];
  for (const [i, { text, params, ifChanged }] of statements.entries()) {
    const skipped = ifChanged !== undefined && ifChanged < i && counts[ifChanged] === 0;
    counts.push(skipped ? 0 : await sql.run(text, params));
  }
  return counts;
}

/** SQLite: prepared once per connection and kept (PreparedDatabase). */
function preparedSql(manager: EntityManager): Sql {
  const sql: Sql = {
    run: (text, params) => connectionOf(manager).runPrepared(text, params),
    all: (text, params) => connectionOf(manager).allPrepared(text, params),
    together: (statements) => oneByOne(sql, statements),
    script: (text) => connectionOf(manager).script(text),
  };
  return sql;
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

/**
 * PostgreSQL (or another TypeORM driver): the same SQL through `manager.query`, with numbered
 * placeholders. Named only on a direct connection: through a pooler (a direct URL given beside
 * it) a transaction-mode PgBouncer hands each transaction another server session, which may
 * already hold the name or lack it (contract, "The database a platform team runs").
 */
function portableSql(manager: EntityManager): Sql {
  const { options } = manager.connection;
  const numbered = options.type === 'postgres';
  const naming = numbered && directUrlOf(options) === undefined;
  const textOf = (text: string): string | NamedStatement => {
    if (!numbered) return text;
    let n = 0;
    const numberedText = text.replace(/\?/g, () => `$${++n}`);
    return naming ? namedStatement(numberedText) : numberedText;
  };
  const sql: Sql = {
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
    together: async (statements) => {
      if (!numbered || statements.length < 2) return oneByOne(sql, statements);
      const { text, params } = togetherStatement(statements);
      const [counts] = await sql.all<Record<string, string | number>>(text, params);
      // count(*) is a bigint, which node-postgres may read as a string.
      return statements.map((_, i) => Number(counts[`n${i}`]));
    },
    script: async (text) => {
      for (const statement of text.split(';').map((part) => part.trim())) {
        if (statement !== '') await manager.query(statement);
      }
    },
  };
  return sql;
}

/**
 * `WITH s0 AS (… RETURNING 1), s1 AS (…) SELECT <rows each changed>`: one PostgreSQL statement.
 * A statement with a condition reads the one it depends on, which must come before it in the WITH.
 */
function togetherStatement(statements: readonly Statement[]): Statement {
  const conditional = (i: number): number => (statements[i].ifChanged === undefined ? 0 : 1);
  const order = [...statements.keys()].sort((a, b) => conditional(a) - conditional(b));
  const parts = order.map((i) => {
    const { text, ifChanged } = statements[i];
    const condition = ifChanged === undefined ? '' : ` WHERE EXISTS (SELECT 1 FROM s${ifChanged})`;
    return `s${i} AS (${text}${condition} RETURNING 1)`;
  });
  const counts = statements.map((_, i) => `(SELECT count(*) FROM s${i}) AS n${i}`);
  return {
    text: `WITH ${parts.join(', ')} SELECT ${counts.join(', ')}`,
    params: order.flatMap((i) => statements[i].params),
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
