import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
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
  /** Emptied in this order: the events before their transactions. */
  private readonly tables: Array<EntityTable<{ serialNumber: string }>>;

  constructor(
    private readonly writer: SerialWriter,
    dataSource: DataSource,
  ) {
    this.tables = [TerminalEventEntity, TerminalTransactionEntity, TerminalPrintJobEntity].map(
      (entity) => new EntityTable<{ serialNumber: string }>(dataSource, entity),
    );
  }

  async erase(serials: string[]): Promise<void> {
    if (serials.length === 0) return;
    await this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      for (const table of this.tables) {
        for (const serialNumber of serials) await table.delete(sql, { serialNumber });
      }
    });
  }
}
