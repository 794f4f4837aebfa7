import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { SerialWriter } from '@tps/database';
import { TerminalPrintJobEntity } from '../printer/terminal-print-job.entity';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalTransactionEntity } from './terminal-transaction.entity';

/**
 * Erases everything terminals keep in the simulator's store (sandbox reset and account removal):
 * transactions, events still queued for the service, print jobs. One write, so a reset never
 * leaves a transaction without its events or the other way round.
 */
@Injectable()
export class TerminalErasure {
  constructor(private readonly writer: SerialWriter) {}

  async erase(serials: string[]): Promise<void> {
    if (serials.length === 0) return;
    await this.writer.write(async (manager) => {
      const serialNumber = In(serials);
      await manager.delete(TerminalEventEntity, { serialNumber });
      await manager.delete(TerminalTransactionEntity, { serialNumber });
      await manager.delete(TerminalPrintJobEntity, { serialNumber });
    });
  }
}
