import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, QueryFailedError, type Repository } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
import { TerminalEntity } from './terminal.entity';

/** Serials named by one read: well under SQLite's bound on a statement's parameters. */
const SERIALS_PER_READ = 500;

@Injectable()
export class TerminalRepository {
  private readonly table: EntityTable<TerminalEntity>;

  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TerminalEntity) private readonly terminals: Repository<TerminalEntity>,
  ) {
    this.table = new EntityTable(terminals.manager.connection, TerminalEntity);
  }

  findBySerial(serialNumber: string): Promise<TerminalEntity | null> {
    return this.terminals.findOneBy({ serialNumber });
  }

  /** A terminal of this merchant; another merchant's is as good as unknown. */
  findForMerchant(merchantId: string, serialNumber: string): Promise<TerminalEntity | null> {
    return this.table.findOne(sqlOf(this.terminals.manager), { merchantId, serialNumber });
  }

  listForMerchant(merchantId: string): Promise<TerminalEntity[]> {
    return this.terminals.find({ where: { merchantId }, order: { createdAt: 'ASC', serialNumber: 'ASC' } });
  }

  listAll(): Promise<TerminalEntity[]> {
    return this.terminals.find({ order: { serialNumber: 'ASC' } });
  }

  /** How many terminals the service holds, every merchant's (the global cap of terminals). */
  countAll(): Promise<number> {
    return this.terminals.count();
  }

  /** How many terminals are not offline: what the fleet sync reads while nothing else changed. */
  countOnline(): Promise<number> {
    return this.terminals.createQueryBuilder('t').where('NOT t.offline').getCount();
  }

  /** The serials of the terminals not offline: their serials only, so that a large fleet is cheap to read. */
  async listOnlineSerials(): Promise<string[]> {
    const rows = await this.terminals
      .createQueryBuilder('t')
      .select('t.serial_number', 'serial')
      .where('NOT t.offline')
      .getRawMany<{ serial: string }>();
    return rows.map((row) => row.serial);
  }

  /** These terminals, those that exist (read in parts: a statement takes so many parameters). */
  async findBySerials(serials: string[]): Promise<TerminalEntity[]> {
    const found: TerminalEntity[] = [];
    for (let at = 0; at < serials.length; at += SERIALS_PER_READ) {
      const part = serials.slice(at, at + SERIALS_PER_READ);
      found.push(...(await this.terminals.findBy({ serialNumber: In(part) })));
    }
    return found;
  }

  /** Terminals whose cardholder is `manual`: the ones that may have to lapse (contract §15). */
  listManual(): Promise<TerminalEntity[]> {
    return this.terminals.find({ where: { cardholder: 'manual' }, order: { serialNumber: 'ASC' } });
  }

  /**
   * Stores `auto` in place of the `manual` set at `setAt`; false when it was set again (or
   * cleared) meanwhile, by a request or another process, which then keeps its own setting.
   */
  async lapseManual(serialNumber: string, setAt: string | null): Promise<boolean> {
    const result = await this.writer.write((manager) =>
      manager.update(
        TerminalEntity,
        { serialNumber, cardholder: 'manual', cardholderSetAt: setAt ?? IsNull() },
        { cardholder: 'auto', cardholderSetAt: null, cardholderSetFrom: null },
      ),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Adds a terminal: `taken` when its serial is already (by any merchant), `full` when its
   * merchant has `fleetLimit` terminals already (counted in the same write).
   */
  async insert(terminal: TerminalEntity, fleetLimit?: number): Promise<'inserted' | 'taken' | 'full'> {
    try {
      return await this.writer.write<'inserted' | 'full'>(async (manager) => {
        if (fleetLimit !== undefined) {
          const fleet = await manager.countBy(TerminalEntity, { merchantId: terminal.merchantId });
          if (fleet >= fleetLimit) return 'full';
        }
        await manager.insert(TerminalEntity, terminal);
        return 'inserted';
      });
    } catch (error) {
      if (error instanceof QueryFailedError && /UNIQUE|duplicate key|Duplicate entry/i.test(error.message))
        return 'taken';
      throw error;
    }
  }

  async save(terminal: TerminalEntity): Promise<TerminalEntity> {
    // Inside the writer's transaction: save() must not open one of its own.
    return this.writer.write((manager) => manager.save(terminal, { transaction: false }));
  }
}
