import type { DataSource } from 'typeorm';
import type { EntityTable } from '../entity-table';
import type { SearchedTransaction, TransactionQuery, TransactionSearch } from '../ports/transaction-search';
import { sqlOf, type SqlValue } from '../sql';

/**
 * A statement both stores run alike, named from the entity's metadata: PostgreSQL's ports take
 * this adapter as it is (postgres-ports.ts). Its text depends on which filters a search gives
 * only (the limit is a parameter), so that few are ever prepared.
 */
export class SqliteTransactionSearch<
  Transaction extends SearchedTransaction,
> implements TransactionSearch<Transaction> {
  constructor(
    private readonly reads: DataSource,
    private readonly transactions: EntityTable<Transaction>,
  ) {}

  async page(query: TransactionQuery<Transaction>): Promise<Transaction[]> {
    const t = this.transactions;
    const column = (property: keyof Transaction & string): string => `t.${t.columnName(property)}`;
    const created = column('createdAtMs');
    const conditions = [`${column('merchantId')} = ?`, `${column('status')} IS NOT NULL`];
    const params: SqlValue[] = [query.merchantId];
    for (const [property, value] of query.equal) {
      conditions.push(`${column(property)} = ?`);
      params.push(value);
    }
    if (query.fromMs !== undefined) {
      conditions.push(`${created} >= ?`);
      params.push(query.fromMs);
    }
    if (query.toMs !== undefined) {
      conditions.push(`${created} <= ?`);
      params.push(query.toMs);
    }
    if (query.after !== undefined) {
      conditions.push(`(${created} < ? OR (${created} = ? AND ${column('id')} < ?))`);
      params.push(query.after.atMs, query.after.atMs, query.after.id);
    }
    const rows = await sqlOf(this.reads.manager).all<Record<string, unknown>>(
      `SELECT ${t.joinedColumns('t', '')} FROM ${t.tableName} t WHERE ${conditions.join(' AND ')} ` +
        `ORDER BY ${created} DESC, ${column('id')} DESC LIMIT ?`,
      [...params, query.take],
    );
    return rows.flatMap((row) => t.hydrateJoined(row, '') ?? []);
  }
}
