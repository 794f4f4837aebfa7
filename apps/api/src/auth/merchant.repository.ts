import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { EntityTable, SerialWriter, isUniqueViolation, sqlOf } from '@tps/database';
import { TerminalEntity } from '../terminals/terminal.entity';
import { MerchantEntity } from './merchant.entity';

/** A merchant, with the terminal a request names if the merchant has it. */
export interface MerchantWithTerminal {
  merchant: MerchantEntity;
  terminal: TerminalEntity | null;
}

@Injectable()
export class MerchantRepository {
  private readonly table: EntityTable<MerchantEntity>;
  private readonly terminals: EntityTable<TerminalEntity>;
  private withTerminalText: string | undefined;

  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>,
  ) {
    this.table = new EntityTable(merchants.manager.connection, MerchantEntity);
    this.terminals = new EntityTable(merchants.manager.connection, TerminalEntity);
  }

  /**
   * Read on every signed request, with the terminal it names (`serial`, else the one bound to the
   * credentials), in one prepared statement: the request's own terminal lookup is then no second
   * trip to the database.
   */
  async findWithTerminal(
    merchantId: string,
    serial: string | undefined,
  ): Promise<MerchantWithTerminal | null> {
    const [row] = await sqlOf(this.merchants.manager).all<Record<string, unknown>>(this.withTerminal(), [
      serial ?? null,
      merchantId,
    ]);
    if (row === undefined) return null;
    const merchant = this.table.hydrateJoined(row, 'm_');
    if (merchant === null) return null;
    return { merchant, terminal: this.terminals.hydrateJoined(row, 't_') };
  }

  /** Read on every signed request: a prepared statement. */
  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.table.findOne(sqlOf(this.merchants.manager), { merchantId });
  }

  /**
   * Whether the merchant is stored, without opening its secrets: they may be sealed under a key
   * this process lacks, which the start-up check reports (contract, "Secrets at rest").
   */
  async exists(merchantId: string): Promise<boolean> {
    const rows = await sqlOf(this.merchants.manager).all<{ one: number }>(
      `SELECT 1 AS one FROM ${this.table.tableName} WHERE ${this.table.columnName('merchantId')} = ?`,
      [merchantId],
    );
    return rows.length > 0;
  }

  private withTerminal(): string {
    if (this.withTerminalText === undefined) {
      const m = this.table;
      const t = this.terminals;
      this.withTerminalText =
        `SELECT ${m.joinedColumns('m', 'm_')}, ${t.joinedColumns('t', 't_')} FROM ${m.tableName} m ` +
        `LEFT JOIN ${t.tableName} t ON t.${t.columnName('merchantId')} = m.${m.columnName('merchantId')} ` +
        `AND t.${t.columnName('serialNumber')} = COALESCE(?, m.${m.columnName('boundTerminalSerial')}) ` +
        `WHERE m.${m.columnName('merchantId')} = ? LIMIT 1`;
    }
    return this.withTerminalText;
  }

  count(): Promise<number> {
    return this.merchants.count();
  }

  /**
   * Adds a merchant and its terminals in one write; false when the merchant id is taken (replicas
   * starting together on one database each seed the demo merchants, and the first one wins).
   */
  async insertWithTerminals(merchant: MerchantEntity, terminals: TerminalEntity[]): Promise<boolean> {
    try {
      await this.writer.write(async (manager) => {
        await manager.insert(MerchantEntity, merchant);
        if (terminals.length > 0) await manager.insert(TerminalEntity, terminals);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async save(merchant: MerchantEntity): Promise<void> {
    // Inside the writer's transaction: save() must not open one of its own.
    await this.writer.write((manager) => manager.save(merchant, { transaction: false }));
  }
}
