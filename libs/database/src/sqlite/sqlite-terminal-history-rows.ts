import type { DataSource } from 'typeorm';
import { EntityTable } from '../entity-table';
import type {
  HistoryEvent,
  HistoryPage,
  HistoryTransaction,
  TerminalHistoryRows,
  TerminalHistoryTables,
} from '../ports/terminal-history-rows';
import { sqlOf, type SqlValue } from '../sql';

/**
 * Statements both stores run alike, named from the entities' metadata: PostgreSQL's ports take
 * this adapter as it is (postgres-ports.ts). What EntityTable does not build: a key's start,
 * ranges, a position to read after, a list of keys.
 */
export class SqliteTerminalHistoryRows<
  Transaction extends HistoryTransaction,
  Event extends HistoryEvent,
> implements TerminalHistoryRows<Transaction, Event> {
  private readonly transactions: EntityTable<Transaction>;
  private readonly events: EntityTable<Event>;
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly reads: DataSource,
    tables: TerminalHistoryTables<Transaction, Event>,
  ) {
    this.transactions = new EntityTable(reads, tables.transactions);
    this.events = new EntityTable(reads, tables.events);
  }

  async page(page: HistoryPage): Promise<Transaction[]> {
    const conditions: Array<[string, (t: (property: string) => string) => string, SqlValue[]]> = [
      ['serial', (t) => `${t('serialNumber')} = ?`, [page.serialNumber]],
      ['prefix', (t) => `substr(${t('key')}, 1, ?) = ?`, [page.keyPrefix.length, page.keyPrefix]],
    ];
    if (page.key !== undefined) conditions.push(['key', (t) => `${t('key')} = ?`, [page.key]]);
    if (page.status !== undefined) conditions.push(['status', (t) => `${t('status')} = ?`, [page.status]]);
    if (page.from !== undefined) conditions.push(['from', (t) => `${t('createdAt')} >= ?`, [page.from]]);
    if (page.to !== undefined) conditions.push(['to', (t) => `${t('createdAt')} <= ?`, [page.to]]);
    if (page.after !== undefined) {
      const { at, key } = page.after;
      conditions.push([
        'after',
        (t) => `(${t('createdAt')} < ? OR (${t('createdAt')} = ? AND ${t('key')} < ?))`,
        [at, at, key],
      ]);
    }
    const text = this.text(`page:${conditions.map(([name]) => name).join(',')}`, () => {
      const table = this.transactions;
      const t = (property: string): string => `t.${table.columnName(property)}`;
      return (
        `SELECT ${table.joinedColumns('t', '')} FROM ${table.tableName} t ` +
        `WHERE ${conditions.map(([, condition]) => condition(t)).join(' AND ')} ` +
        `ORDER BY ${t('createdAt')} DESC, ${t('key')} DESC LIMIT ?`
      );
    });
    const rows = await sqlOf(this.reads.manager).all<Record<string, unknown>>(text, [
      ...conditions.flatMap(([, , params]) => params),
      page.take,
    ]);
    return rows.map((row) => this.transactions.hydrateJoined(row, '') as Transaction);
  }

  async eventsOf(keys: readonly string[]): Promise<Event[]> {
    if (keys.length === 0) return [];
    // Padded to a power of two (a key twice picks nothing more), so few texts are ever prepared.
    let size = 1;
    while (size < keys.length) size *= 2;
    const padded = [...keys, ...Array.from({ length: size - keys.length }, () => keys[0])];
    const text = this.text(`eventsOf:${size}`, () => {
      const table = this.events;
      const e = (property: string): string => `e.${table.columnName(property)}`;
      return (
        `SELECT ${table.joinedColumns('e', '')} FROM ${table.tableName} e ` +
        `WHERE ${e('transactionKey')} IN (${padded.map(() => '?').join(', ')}) ORDER BY ${e('seq')}`
      );
    });
    const rows = await sqlOf(this.reads.manager).all<Record<string, unknown>>(text, padded);
    return rows.map((row) => this.events.hydrateJoined(row, '') as Event);
  }

  /** A statement's text, built on first use (the entities' metadata exists once the data source is initialized) and kept. */
  private text(key: string, build: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = build();
      this.texts.set(key, text);
    }
    return text;
  }
}
