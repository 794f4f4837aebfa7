import type { TestStore } from '@tps/testing';

/** Bytes each table takes, its indexes included, by table name. */
export type TableSizes = Record<string, number>;

/**
 * SQLite: the pages of each table and of its indexes (`dbstat`), read through the log as a reader
 * sees the database now, so no checkpoint is needed. PostgreSQL: `pg_total_relation_size` of each
 * table (heap, indexes, TOAST), dead rows not yet vacuumed included, as the server holds them.
 */
export async function tableSizes(store: TestStore, app: 'api' | 'terminal'): Promise<TableSizes> {
  const rows =
    store.kind === 'sqlite'
      ? await store.rows<{ tbl: string; bytes: number }>(
          app,
          'SELECT m.tbl_name AS tbl, SUM(s.pgsize) AS bytes FROM dbstat s ' +
            "JOIN sqlite_master m ON m.name = s.name WHERE m.tbl_name NOT LIKE 'sqlite_%' GROUP BY m.tbl_name",
        )
      : await store.rows<{ tbl: string; bytes: string }>(
          app,
          'SELECT c.relname AS tbl, pg_total_relation_size(c.oid) AS bytes FROM pg_class c ' +
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'",
        );
  return Object.fromEntries(rows.map((row) => [row.tbl, Number(row.bytes)]));
}

/** What each table grew by from `before` to `after`, per transaction; tables that did not grow are left out. */
export function grownPer(before: TableSizes, after: TableSizes, transactions: number): TableSizes {
  const grown: TableSizes = {};
  for (const [table, bytes] of Object.entries(after)) {
    const delta = bytes - (before[table] ?? 0);
    if (delta > 0) grown[table] = delta / transactions;
  }
  return grown;
}
