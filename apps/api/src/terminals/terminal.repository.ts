import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  anyOf,
  EntityTable,
  isUniqueViolation,
  portsOf,
  SerialWriter,
  sqlOf,
  type AccountRows,
  type Sql,
} from '@tps/database';
import { TerminalEntity } from './terminal.entity';

/** Serials named by one read: well under SQLite's bound on a statement's parameters. */
const SERIALS_PER_READ = 500;

@Injectable()
export class TerminalRepository {
  private readonly table: EntityTable<TerminalEntity>;
  private readonly accounts: AccountRows;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
  ) {
    this.table = new EntityTable(reads, TerminalEntity);
    this.accounts = portsOf(reads).accountRows();
  }

  private get sql(): Sql {
    return sqlOf(this.reads.manager);
  }

  findBySerial(serialNumber: string): Promise<TerminalEntity | null> {
    return this.table.findOne(this.sql, { serialNumber });
  }

  /** A terminal of this merchant; another merchant's is as good as unknown. */
  findForMerchant(merchantId: string, serialNumber: string): Promise<TerminalEntity | null> {
    return this.table.findOne(this.sql, { merchantId, serialNumber });
  }

  listForMerchant(merchantId: string): Promise<TerminalEntity[]> {
    return this.table.find(
      this.sql,
      { merchantId },
      {
        orderBy: [
          ['createdAt', 'ASC'],
          ['serialNumber', 'ASC'],
        ],
      },
    );
  }

  listAll(): Promise<TerminalEntity[]> {
    return this.table.find(this.sql, {}, { orderBy: [['serialNumber', 'ASC']] });
  }

  /** How many terminals the service holds, every merchant's (the global cap of terminals). */
  countAll(): Promise<number> {
    return this.table.count(this.sql, {});
  }

  /** How many terminals are not offline: what the fleet sync reads while nothing else changed. */
  countOnline(): Promise<number> {
    return this.table.count(this.sql, { offline: false });
  }

  /** The serials of the terminals not offline: their serials only, so that a large fleet is cheap to read. */
  async listOnlineSerials(): Promise<string[]> {
    const rows = await this.table.findColumns(this.sql, ['serialNumber'], { offline: false });
    return rows.map((row) => row.serialNumber);
  }

  /** These terminals, those that exist (read in parts: a statement takes so many parameters). */
  async findBySerials(serials: string[]): Promise<TerminalEntity[]> {
    const found: TerminalEntity[] = [];
    for (let at = 0; at < serials.length; at += SERIALS_PER_READ) {
      const part = serials.slice(at, at + SERIALS_PER_READ);
      found.push(...(await this.table.find(this.sql, { serialNumber: anyOf(part) })));
    }
    return found;
  }

  /** Terminals whose cardholder is `manual`: the ones that may have to lapse (contract §15). */
  listManual(): Promise<TerminalEntity[]> {
    return this.table.find(this.sql, { cardholder: 'manual' }, { orderBy: [['serialNumber', 'ASC']] });
  }

  /**
   * Stores `auto` in place of the `manual` set at `setAt`; false when it was set again (or
   * cleared) meanwhile, by a request or another process, which then keeps its own setting.
   */
  async lapseManual(serialNumber: string, setAt: string | null): Promise<boolean> {
    const changed = await this.writer.write((manager) =>
      this.table.update(
        sqlOf(manager),
        { serialNumber, cardholder: 'manual', cardholderSetAt: setAt },
        { cardholder: 'auto', cardholderSetAt: null, cardholderSetFrom: null },
      ),
    );
    return changed > 0;
  }

  /**
   * Adds a terminal: `taken` when its serial is already (by any merchant), `full` when its
   * merchant has `fleetLimit` terminals already (counted in the same write).
   */
  /**
   * Stores a new terminal of its merchant: 'gone' when the merchant no longer is (its account was
   * removed meanwhile), 'taken' when the serial is, 'full' at `fleetLimit`.
   */
  async insert(
    terminal: TerminalEntity,
    fleetLimit?: number,
  ): Promise<'inserted' | 'taken' | 'full' | 'gone'> {
    try {
      return await this.writer.write<'inserted' | 'full' | 'gone'>(async (manager) => {
        const sql = sqlOf(manager);
        // Held to the write's end, as the account's removal holds it first (AccountRepository.remove):
        // a removal at the same moment either waits for this terminal and removes it too, or went
        // first, and no terminal is stored for a merchant that is gone.
        if (!(await this.accounts.holdMerchant(manager, terminal.merchantId))) return 'gone';
        if (fleetLimit !== undefined) {
          const fleet = await this.table.count(sql, { merchantId: terminal.merchantId });
          if (fleet >= fleetLimit) return 'full';
        }
        await this.table.insert(sql, terminal);
        return 'inserted';
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  /** Stores the terminal's settings as they are now (its serial and creation never change). */
  async save(terminal: TerminalEntity): Promise<TerminalEntity> {
    const { serialNumber, createdAt: _created, ...settings } = terminal;
    await this.writer.write((manager) => this.table.update(sqlOf(manager), { serialNumber }, settings));
    return terminal;
  }
}
