import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  EntityTable,
  isUniqueViolation,
  portsOf,
  SerialWriter,
  sqlOf,
  type AccountRows,
} from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';
import { TerminalEntity } from '../terminals/terminal.entity';

/**
 * A sandbox account as a whole (contract §14): made, wiped clean and removed each in one write,
 * so no caller ever sees half an account.
 */
@Injectable()
export class AccountRepository {
  private readonly rows: AccountRows;
  private readonly merchants: EntityTable<MerchantEntity>;
  private readonly terminals: EntityTable<TerminalEntity>;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
  ) {
    this.rows = portsOf(reads).accountRows();
    this.merchants = new EntityTable(reads, MerchantEntity);
    this.terminals = new EntityTable(reads, TerminalEntity);
  }

  /** Stores a merchant with its fleet; false when an id or a serial is already taken. */
  async create(merchant: MerchantEntity, terminals: TerminalEntity[]): Promise<boolean> {
    try {
      await this.writer.write(async (manager) => {
        await this.merchants.insert(sqlOf(manager), merchant);
        // Its creation is its first activity: an account made and never used goes when idle too.
        await this.rows.stampActive(manager, merchant.merchantId, Date.now());
        await this.terminals.insert(sqlOf(manager), terminals);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  fleetOf(merchantId: string): Promise<TerminalEntity[]> {
    return this.terminals.find(
      sqlOf(this.reads.manager),
      { merchantId },
      {
        orderBy: [
          ['createdAt', 'ASC'],
          ['serialNumber', 'ASC'],
        ],
      },
    );
  }

  /** Puts the merchant's terminals back online with the printer ok (pace kept); answers the fleet. */
  async restoreFleet(merchantId: string): Promise<TerminalEntity[]> {
    await this.writer.write((manager) =>
      this.terminals.update(
        sqlOf(manager),
        { merchantId },
        { offline: false, printer: 'ok', cardholder: 'auto', cardholderSetAt: null, cardholderSetFrom: null },
      ),
    );
    return this.fleetOf(merchantId);
  }

  /**
   * Erases what the merchant did (transactions, their events, webhook deliveries and attempts,
   * print jobs) and puts its clock back to real time, in one write.
   */
  async eraseActivity(merchantId: string): Promise<void> {
    await this.writer.write(async (manager) => {
      await this.rows.eraseActivity(manager, merchantId);
      await this.merchants.update(sqlOf(manager), { merchantId }, { clockOffsetSeconds: 0 });
    });
  }

  /** Removes the merchant, its terminals and everything they did. */
  /** Removes the account and all it holds; answers the serials of the terminals it had then. */
  async remove(merchantId: string): Promise<string[]> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      // Held first: a terminal being added to it (TerminalRepository.insert) is either stored
      // before, and read and removed here, or finds the merchant gone.
      await this.rows.holdMerchant(manager, merchantId);
      const fleet = await this.terminals.findColumns(sql, ['serialNumber'], { merchantId });
      await this.rows.eraseActivity(manager, merchantId);
      await this.terminals.delete(sql, { merchantId });
      await this.merchants.delete(sql, { merchantId });
      return fleet.map((terminal) => terminal.serialNumber);
    });
  }
}
