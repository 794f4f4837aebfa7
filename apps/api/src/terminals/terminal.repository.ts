import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, type Repository } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
import { TerminalEntity } from './terminal.entity';

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

  /** Adds a terminal; false when its serial is already taken (by any merchant). */
  async insert(terminal: TerminalEntity): Promise<boolean> {
    try {
      await this.writer.write((manager) => manager.insert(TerminalEntity, terminal));
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && /UNIQUE|duplicate key|Duplicate entry/i.test(error.message))
        return false;
      throw error;
    }
  }

  async save(terminal: TerminalEntity): Promise<TerminalEntity> {
    // Through the shared writer: save() opens a transaction, which must not interleave with others.
    return this.writer.write((manager) => manager.save(terminal));
  }
}
