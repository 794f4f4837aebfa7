import type { DataSource } from 'typeorm';
import type { EntityTable } from '../entity-table';
import type {
  LookedUpMerchant,
  LookedUpTerminal,
  MerchantLookup,
  MerchantWithTerminal,
} from '../ports/merchant-lookup';
import { sqlOf } from '../sql';

/**
 * Statements both stores run alike, named from the entities' metadata: PostgreSQL's ports take
 * this adapter as it is (postgres-ports.ts). The lookup with its terminal is one statement,
 * prepared once: a signed request's own terminal lookup is then no second trip to the database.
 */
export class SqliteMerchantLookup<
  Merchant extends LookedUpMerchant,
  Terminal extends LookedUpTerminal,
> implements MerchantLookup<Merchant, Terminal> {
  private withTerminalText: string | undefined;

  constructor(
    private readonly reads: DataSource,
    private readonly merchants: EntityTable<Merchant>,
    private readonly terminals: EntityTable<Terminal>,
  ) {}

  async withTerminal(
    merchantId: string,
    serial: string | undefined,
  ): Promise<MerchantWithTerminal<Merchant, Terminal> | null> {
    const [row] = await sqlOf(this.reads.manager).all<Record<string, unknown>>(this.withTerminalSql(), [
      serial ?? null,
      merchantId,
    ]);
    if (row === undefined) return null;
    const merchant = this.merchants.hydrateJoined(row, 'm_');
    if (merchant === null) return null;
    return { merchant, terminal: this.terminals.hydrateJoined(row, 't_') };
  }

  async exists(merchantId: string): Promise<boolean> {
    const m = this.merchants;
    const rows = await sqlOf(this.reads.manager).all<{ one: number }>(
      `SELECT 1 AS one FROM ${m.tableName} WHERE ${m.columnName('merchantId')} = ?`,
      [merchantId],
    );
    return rows.length > 0;
  }

  /** Built on first use: the entities' metadata exists only once the data source is initialized. */
  private withTerminalSql(): string {
    if (this.withTerminalText === undefined) {
      const m = this.merchants;
      const t = this.terminals;
      this.withTerminalText =
        `SELECT ${m.joinedColumns('m', 'm_')}, ${t.joinedColumns('t', 't_')} FROM ${m.tableName} m ` +
        `LEFT JOIN ${t.tableName} t ON t.${t.columnName('merchantId')} = m.${m.columnName('merchantId')} ` +
        `AND t.${t.columnName('serialNumber')} = COALESCE(?, m.${m.columnName('boundTerminalSerial')}) ` +
        `WHERE m.${m.columnName('merchantId')} = ? LIMIT 1`;
    }
    return this.withTerminalText;
  }
}
