import type { EntityManager, QueryResult } from 'typeorm';
import type { Sql, SqlValue, Statement } from './sql';

/** Each statement in turn, where a statement costs no trip to a server (SQLite). */
export async function oneByOne(sql: Pick<Sql, 'run'>, statements: readonly Statement[]): Promise<number[]> {
  const counts: number[] = [];
  for (const [i, { text, params, ifChanged }] of statements.entries()) {
    const skipped = ifChanged !== undefined && ifChanged < i && counts[ifChanged] === 0;
    counts.push(skipped ? 0 : await sql.run(text, params));
  }
  return counts;
}

/** A statement as the driver takes it: its text, or for node-postgres `{ name, text }` too. */
export type DriverStatement = string | { name: string; text: string };

/** A statement on the manager's connection (its transaction's, if any), with its row count. */
async function structuredQuery(
  manager: EntityManager,
  text: DriverStatement,
  params: readonly SqlValue[],
): Promise<QueryResult> {
  // TypeORM hands the statement to the driver as it is.
  const query = text as string;
  if (manager.queryRunner !== undefined) return manager.queryRunner.query(query, [...params], true);
  const runner = manager.connection.createQueryRunner();
  try {
    return await runner.query(query, [...params], true);
  } finally {
    await runner.release();
  }
}

/**
 * The SQL through `manager.query`, each text as `textOf` makes it for the driver; `together`
 * in the store's own way, one by one if none is given.
 */
export function portableSql(
  manager: EntityManager,
  textOf: (text: string) => DriverStatement = (text) => text,
  together?: (sql: Sql, statements: readonly Statement[]) => Promise<number[]>,
): Sql {
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
    together: (statements) =>
      together === undefined || statements.length < 2 ? oneByOne(sql, statements) : together(sql, statements),
    script: async (text) => {
      for (const statement of text.split(';').map((part) => part.trim())) {
        if (statement !== '') await manager.query(statement);
      }
    },
  };
  return sql;
}
