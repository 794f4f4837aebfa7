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
    const rows = await sql.all<Record<string, string | number | null>>(text, params);
    // count(*) is a bigint, which node-postgres may read as a string.
    const counts = statements.map((_, i) => Number(rows[0][`n${i}`]));
    const returning = statements.findIndex((statement) => statement.returning !== undefined);
    if (returning >= 0) {
      // One row per row returned, beside the counts; a single row of NULLs when it returned none.
      const returned = counts[returning] === 0 ? [] : rows.map(withoutCounts(statements.length));
      statements[returning].returning?.rows(returned);
    }
    return counts;
  });
}

/** A row of the together statement without its counts (n0, n1, …): the returned row alone. */
function withoutCounts(statements: number): (row: Record<string, unknown>) => Record<string, unknown> {
  return (row) => {
    const returned = { ...row };
    for (let i = 0; i < statements; i++) delete returned[`n${i}`];
    return returned;
  };
}

/**
 * `WITH s0 AS (… RETURNING 1), s1 AS (…) SELECT <rows each changed>`: one PostgreSQL statement.
 * A statement with a condition reads the one it depends on, which must come before it in the WITH.
 * A statement that asks for its rows has them joined to the counts, one row of the result each.
 */
function togetherStatement(statements: readonly Statement[]): Statement {
  const conditional = (i: number): number => (statements[i].ifChanged === undefined ? 0 : 1);
  const order = [...statements.keys()].sort((a, b) => conditional(a) - conditional(b));
  const parts = order.map((i) => {
    const { text, ifChanged, returning } = statements[i];
    const condition = ifChanged === undefined ? '' : ` WHERE EXISTS (SELECT 1 FROM s${ifChanged})`;
    return `s${i} AS (${text}${condition} RETURNING ${returning?.columns ?? '1'})`;
  });
  const counts = `SELECT ${statements.map((_, i) => `(SELECT count(*) FROM s${i}) AS n${i}`).join(', ')}`;
  const asking = statements.filter((statement) => statement.returning !== undefined).length;
  if (asking > 1) throw new Error('Sql.together: one statement at most may ask for its rows');
  const r = statements.findIndex((statement) => statement.returning !== undefined);
  const select = r < 0 ? counts : `SELECT c.*, r.* FROM (${counts}) AS c LEFT JOIN s${r} AS r ON true`;
  return {
    text: `WITH ${parts.join(', ')} ${select}`,
    params: order.flatMap((i) => statements[i].params),
  };
}
