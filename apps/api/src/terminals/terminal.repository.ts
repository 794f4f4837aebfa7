import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SerialWriter } from '@tps/database';
import { TerminalEntity } from './terminal.entity';

@Injectable()
export class TerminalRepository {
  private readonly writer: SerialWriter;

  constructor(@InjectRepository(TerminalEntity) private readonly terminals: Repository<TerminalEntity>) {
    this.writer = new SerialWriter(terminals.manager.connection);
  }

  findBySerial(serialNumber: string): Promise<TerminalEntity | null> {
    return this.terminals.findOneBy({ serialNumber });
  }

  /** A terminal of this merchant; another merchant's is as good as unknown. */
  findForMerchant(merchantId: string, serialNumber: string): Promise<TerminalEntity | null> {
    return this.terminals.findOneBy({ merchantId, serialNumber });
  }

  listForMerchant(merchantId: string): Promise<TerminalEntity[]> {
    return this.terminals.find({ where: { merchantId }, order: { createdAt: 'ASC', serialNumber: 'ASC' } });
  }

  listAll(): Promise<TerminalEntity[]> {
    return this.terminals.find({ order: { serialNumber: 'ASC' } });
  }

  async save(terminal: TerminalEntity): Promise<TerminalEntity> {
    // Through the shared writer: save() opens a transaction, which must not interleave with others.
    return this.writer.write((manager) => manager.save(terminal));
  }
}
