import type { EntityStatements, Equality } from '../entity-statements';

/** One condition: the column holds the value, none, or one of the values. */
const conditionOf = ({ column, isNull, among }: Equality): string =>
  isNull
    ? `${column} IS NULL`
    : among === undefined
      ? `${column} = ?`
      : `${column} IN (${Array.from({ length: among }, () => '?').join(', ')})`;

/** ` WHERE …` of the equalities, or nothing when there are none (every row). */
const whereOf = (where: readonly Equality[]): string =>
  where.length === 0 ? '' : ` WHERE ${where.map(conditionOf).join(' AND ')}`;

/** A list of `count` rows, each `row`. */
const rowsOf = (row: string, count: number): string => Array.from({ length: count }, () => row).join(', ');

/** What an UPDATE sets: `assignments`, and the column TypeORM moves on every update, if any. */
const setsOf = (assignments: string[], touched: string | undefined): string =>
  [...assignments, ...(touched === undefined ? [] : [`${touched} = CURRENT_TIMESTAMP`])].join(', ');

/** EntityTable's statements, sent alike by every store. */
export const entityStatements: EntityStatements = {
  insert: (table, columns, rows, ending) => {
    const tail =
      ending === undefined
        ? ''
        : 'unlessTaken' in ending
          ? ' ON CONFLICT DO NOTHING'
          : ` RETURNING ${ending.returning}`;
    const row = `(${columns.map(() => '?').join(', ')})`;
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rowsOf(row, rows)}${tail}`;
  },

  insertSelect: (table, columns, placeholders, rows) =>
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM (VALUES ${rowsOf(`(${placeholders.join(', ')})`, rows)}) AS v`,

  update: (table, columns, touched, where) =>
    `UPDATE ${table} SET ${setsOf(
      columns.map((column) => `${column} = ?`),
      touched,
    )}${whereOf(where)}`,

  updateEach: ({ table, key, columns, placeholders, rows, set, touched, matching, guarded }) => {
    // Qualified: v has columns of the same names.
    const conditions = [
      ...matching.map((column) => `${table}.${column} = v.${column}`),
      ...guarded.map((column) => `${table}.${column} = ?`),
    ];
    return (
      `WITH v (${columns.join(', ')}) AS (VALUES ${rowsOf(`(${placeholders.join(', ')})`, rows)}) ` +
      `UPDATE ${table} SET ${setsOf(
        set.map((column) => `${column} = v.${column}`),
        touched,
      )} FROM v WHERE ${table}.${key} = v.${key}` +
      conditions.map((condition) => ` AND ${condition}`).join('') +
      (conditions.length === 0 ? '' : ` RETURNING ${table}.${key} AS changed`)
    );
  },

  add: (table, column, touched, where) =>
    `UPDATE ${table} SET ${setsOf([`${column} = ${column} + ?`], touched)}${whereOf(where)}`,

  delete: (table, where) => `DELETE FROM ${table}${whereOf(where)}`,

  count: (table, where) => `SELECT COUNT(*) AS count FROM ${table}${whereOf(where)}`,

  select: ({ table, columns, where, orderBy, limit, lock }) => {
    const order =
      orderBy.length === 0
        ? ''
        : ` ORDER BY ${orderBy.map(([column, direction]) => `${column} ${direction}`).join(', ')}`;
    return `SELECT ${columns.join(', ')} FROM ${table}${whereOf(where)}${order}${limit === undefined ? '' : ` LIMIT ${limit}`}${lock ? ' FOR UPDATE' : ''}`;
  },
};
