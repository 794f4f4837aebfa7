import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  EntityTable,
  SerialWriter,
  isUniqueViolation,
  portsOf,
  sqlOf,
  type MerchantLookup,
  type MerchantWithTerminal as StoredMerchantWithTerminal,
} from '@tps/database';
import { TerminalEntity } from '../terminals/terminal.entity';
import { MerchantEntity } from './merchant.entity';

/** A merchant, with the terminal a request names if the merchant has it. */
export type MerchantWithTerminal = StoredMerchantWithTerminal<MerchantEntity, TerminalEntity>;

@Injectable()
export class MerchantRepository {
  private readonly table: EntityTable<MerchantEntity>;
  private readonly terminals: EntityTable<TerminalEntity>;
  private readonly lookup: MerchantLookup<MerchantEntity, TerminalEntity>;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
  ) {
    this.table = new EntityTable(reads, MerchantEntity);
    this.terminals = new EntityTable(reads, TerminalEntity);
    this.lookup = portsOf(reads).merchantLookup(reads, this.table, this.terminals);
  }

  /**
   * Read on every signed request, with the terminal it names (`serial`, else the one bound to the
   * credentials), in one prepared statement: the request's own terminal lookup is then no second
   * trip to the database.
   */
  findWithTerminal(merchantId: string, serial: string | undefined): Promise<MerchantWithTerminal | null> {
    return this.lookup.withTerminal(merchantId, serial);
  }

  /** Read on every signed request: a prepared statement. */
  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.table.findOne(sqlOf(this.reads.manager), { merchantId });
  }

  /**
   * Whether the merchant is stored, without opening its secrets: they may be sealed under a key
   * this process lacks, which the start-up check reports (contract, "Secrets at rest").
   */
  exists(merchantId: string): Promise<boolean> {
    return this.lookup.exists(merchantId);
  }

  /**
   * Adds a merchant and its terminals in one write; false when the merchant id is taken (replicas
   * starting together on one database each seed the demo merchants, and the first one wins).
   */
  async insertWithTerminals(merchant: MerchantEntity, terminals: TerminalEntity[]): Promise<boolean> {
    try {
      await this.writer.write(async (manager) => {
        const sql = sqlOf(manager);
        await this.table.insert(sql, merchant);
        await this.terminals.insert(sql, terminals);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
