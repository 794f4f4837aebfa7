import { Database } from 'sqlite3';

/** Per column, an SQL expression over the template row `t` and the copy number `n`. */
export type Overrides = Record<string, string>;

function run(db: Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
}

function columnsOf(db: Database, table: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    db.all<{ name: string }>(`PRAGMA table_info("${table}")`, (error, rows) =>
      error ? reject(error) : resolve(rows.map((row) => row.name)),
    ),
  );
}

/** A UUID-shaped value unique per (template value, copy number): 24 characters kept, 12 digits of n. */
export const uuidFor = (column: string): string => `substr(t."${column}", 1, 24) || printf('%012d', n)`;

/**
 * Copies the rows of `table` chosen by `where` `count` times, inside SQLite (a recursive CTE),
 * with the columns named in `overrides` rewritten per copy. Columns the schema gains later are
 * copied as they are, so this keeps working as migrations add them.
 */
export async function cloneRows(
  file: string,
  table: string,
  where: string,
  count: number,
  overrides: Overrides,
  skip: string[] = [],
): Promise<void> {
  const db = new Database(file);
  try {
    const columns = (await columnsOf(db, table)).filter((column) => !skip.includes(column));
    const list = columns.map((column) => `"${column}"`).join(', ');
    const values = columns.map((column) => overrides[column] ?? `t."${column}"`).join(', ');
    await run(
      db,
      `PRAGMA journal_mode = WAL; BEGIN;
       WITH RECURSIVE copies(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM copies WHERE n < ${count})
       INSERT INTO "${table}" (${list}) SELECT ${values} FROM copies, (SELECT * FROM "${table}" WHERE ${where}) AS t;
       COMMIT;`,
    );
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
