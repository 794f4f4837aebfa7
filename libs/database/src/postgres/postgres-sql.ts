import type { EntityManager } from 'typeorm';
import { directUrlOf } from '../data-source-options';
import { portableSql, type DriverStatement } from '../portable-sql';
import type { Sql, Statement } from '../sql';

/**
 * The fixed statements of the hot path, named: the server parses and plans each once per
 * connection instead of at every execution. Texts made from a list's length (`IN (?, ?, …)`)
 * would name without end, so past this many the rest go unnamed.
 */
const MAX_NAMED = 256;
const named = new Map<string, { name: string; text: string }>();

function namedStatement(text: string): DriverStatement {
  let statement = named.get(text);
  if (statement === undefined) {
    if (named.size >= MAX_NAMED) return text;
    statement = { name: `tps_${named.size + 1}`, text };
    named.set(text, statement);
  }
  return statement;
}

/**
 * PostgreSQL's Sql: numbered placeholders, and statements named only on a direct connection:
 * through a pooler (a direct URL given beside it) a transaction-mode PgBouncer hands each
 * transaction another server session, which may already hold the name or lack it (contract,
 * "The database a platform team runs").
 */
export function postgresSqlOf(manager: EntityManager): Sql {
  const naming = directUrlOf(manager.connection.options) === undefined;
  const textOf = (text: string): DriverStatement => {
    let n = 0;
    const numbered = text.replace(/\?/g, () => `$${++n}`);
    return naming ? namedStatement(numbered) : numbered;
  };
  return portableSql(manager, textOf, async (sql, statements) => {
    const { text, params } = togetherStatement(statements);
    const [counts] = await sql.all<Record<string, string | number>>(text, params);
    // count(*) is a bigint, which node-postgres may read as a string.
    return statements.map((_, i) => Number(counts[`n${i}`]));
  });
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
