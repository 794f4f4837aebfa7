import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { LifecycleStatus } from '@tps/domain';
import type { SearchPosition } from '@tps/contracts';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalTransactionEntity } from './terminal-transaction.entity';

/** What a page of the terminal's own records is narrowed by in the store itself. */
export interface HistoryQuery {
  serialNumber: string;
  merchantId: string;
  key?: string;
  status?: LifecycleStatus;
  /** ISO 8601 UTC bounds on the merchant clock, inclusive. */
  from?: string;
  to?: string;
  after?: SearchPosition;
  take: number;
}

/** Reads the terminal's store for local transaction search, newest first. */
@Injectable()
export class TerminalHistory {
  constructor(
    @InjectRepository(TerminalTransactionEntity)
    private readonly transactions: Repository<TerminalTransactionEntity>,
    @InjectRepository(TerminalEventEntity) private readonly events: Repository<TerminalEventEntity>,
  ) {}

  page(query: HistoryQuery): Promise<TerminalTransactionEntity[]> {
    const prefix = `${query.merchantId}:`;
    const builder = this.transactions
      .createQueryBuilder('t')
      .where('t.serial_number = :serial', { serial: query.serialNumber })
      // Keys are merchant_id ":" client_transaction_id: another merchant's records never show.
      .andWhere('substr(t.key, 1, :length) = :prefix', { length: prefix.length, prefix });
    if (query.key !== undefined) builder.andWhere('t.key = :key', { key: query.key });
    if (query.status !== undefined) builder.andWhere('t.status = :status', { status: query.status });
    if (query.from !== undefined) builder.andWhere('t.created_at >= :from', { from: query.from });
    if (query.to !== undefined) builder.andWhere('t.created_at <= :to', { to: query.to });
    if (query.after !== undefined) {
      builder.andWhere('(t.created_at < :at OR (t.created_at = :at AND t.key < :afterKey))', {
        at: query.after.at,
        afterKey: query.after.key,
      });
    }
    return builder.orderBy('t.created_at', 'DESC').addOrderBy('t.key', 'DESC').take(query.take).getMany();
  }

  /** The events of these transactions, each transaction's in emission order. */
  async eventsOf(keys: string[]): Promise<Map<string, TerminalEventEntity[]>> {
    const byKey = new Map<string, TerminalEventEntity[]>(keys.map((key) => [key, []]));
    if (keys.length === 0) return byKey;
    const rows = await this.events.find({ where: { transactionKey: In(keys) }, order: { seq: 'ASC' } });
    for (const row of rows) byKey.get(row.transactionKey)?.push(row);
    return byKey;
  }
}
