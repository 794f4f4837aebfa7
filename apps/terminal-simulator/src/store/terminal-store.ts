import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { insertRows, SerialWriter } from '@tps/database';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { transactionKey, type RuntimeStore } from '../runtime/runtime-store';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalTransactionEntity } from './terminal-transaction.entity';

export { transactionKey };

/** The terminal's own SQLite store: its transactions and its queue of events for the service. */
@Injectable()
export class TerminalStore implements RuntimeStore {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TerminalTransactionEntity)
    private readonly transactions: Repository<TerminalTransactionEntity>,
    @InjectRepository(TerminalEventEntity) private readonly events: Repository<TerminalEventEntity>,
  ) {}

  findTransaction(key: string): Promise<TerminalTransactionEntity | null> {
    return this.transactions.findOneBy({ key });
  }

  /** Stores an event and the state it moved its transaction to, in one write. */
  async record(serialNumber: string, order: OperationOrder, link: LinkEvent): Promise<void> {
    const key = transactionKey(order.merchantId, order.clientTransactionId);
    return this.writer.write(async (manager) => {
      if (link.event.status === 'TERMINAL_ACKNOWLEDGED') {
        await insertRows(manager, TerminalTransactionEntity, {
          key,
          serialNumber,
          order,
          status: link.event.status,
          outcome: null,
          createdAt: link.event.occurred_at,
        });
      } else {
        const changes: Partial<TerminalTransactionEntity> = { status: link.event.status };
        if (link.outcome !== undefined) changes.outcome = link.outcome;
        await manager.update(TerminalTransactionEntity, { key }, changes);
      }
      await insertRows(manager, TerminalEventEntity, {
        serialNumber,
        transactionKey: key,
        eventId: link.event.event_id,
        envelope: link.event,
        outcome: link.outcome ?? null,
        acked: false,
      });
    });
  }

  /** The oldest events the service has not acknowledged yet, in emission order, as they go up. */
  async pending(serialNumber: string, limit: number): Promise<Array<{ seq: number; link: LinkEvent }>> {
    const rows = await this.events.find({
      where: { serialNumber, acked: false },
      order: { seq: 'ASC' },
      take: limit,
    });
    const links = await this.asLinks(rows);
    return rows.map((row, i) => ({ seq: row.seq, link: links[i] }));
  }

  /**
   * How many events wait for the service, across every hosted terminal. Counted in turn with the
   * writes: on SQLite's one shared connection a read beside an open write would see it uncommitted.
   */
  queuedCount(): Promise<number> {
    return this.writer.write((manager) => manager.countBy(TerminalEventEntity, { acked: false }));
  }

  async acknowledge(seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.writer.write((manager) =>
      manager.update(TerminalEventEntity, { seq: In(seqs) }, { acked: true }),
    );
  }

  /** Transactions left unfinished by a crash, so the terminal can close them at start-up. */
  unfinished(serialNumber: string): Promise<TerminalTransactionEntity[]> {
    return this.transactions
      .createQueryBuilder('t')
      .where('t.serial_number = :serialNumber', { serialNumber })
      .andWhere('t.status IN (:...open)', {
        open: ['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED'],
      })
      .getMany();
  }

  /** Every event stored for one transaction, in order, as it travels up the link. */
  async linkEvents(key: string): Promise<LinkEvent[]> {
    return this.asLinks(await this.events.find({ where: { transactionKey: key }, order: { seq: 'ASC' } }));
  }

  /** Each acknowledgement carries its order, read in one query for the rows that need it. */
  private async asLinks(rows: TerminalEventEntity[]): Promise<LinkEvent[]> {
    const keys = rows
      .filter((row) => row.envelope.status === 'TERMINAL_ACKNOWLEDGED')
      .map((row) => row.transactionKey);
    const orders = new Map<string, OperationOrder>();
    if (keys.length > 0) {
      for (const transaction of await this.transactions.findBy({ key: In(keys) })) {
        orders.set(transaction.key, transaction.order);
      }
    }
    return rows.map((row) => {
      const link: LinkEvent = { event: row.envelope };
      if (row.outcome !== null) link.outcome = row.outcome;
      const order = orders.get(row.transactionKey);
      if (order !== undefined && row.envelope.status === 'TERMINAL_ACKNOWLEDGED') link.order = order;
      return link;
    });
  }

  lastEvent(key: string): Promise<TerminalEventEntity | null> {
    return this.events.findOne({ where: { transactionKey: key }, order: { seq: 'DESC' } });
  }
}
