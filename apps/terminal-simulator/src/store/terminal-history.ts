import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { portsOf, type TerminalHistoryRows } from '@tps/database';
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
  private readonly rows: TerminalHistoryRows<TerminalTransactionEntity, TerminalEventEntity>;

  constructor(dataSource: DataSource) {
    this.rows = portsOf(dataSource).terminalHistoryRows(dataSource, {
      transactions: TerminalTransactionEntity,
      events: TerminalEventEntity,
    });
  }

  page(query: HistoryQuery): Promise<TerminalTransactionEntity[]> {
    const { merchantId, ...page } = query;
    // Keys are merchant_id ":" client_transaction_id: another merchant's records never show.
    return this.rows.page({ ...page, keyPrefix: `${merchantId}:` });
  }

  /** The events of these transactions, each transaction's in emission order. */
  async eventsOf(keys: string[]): Promise<Map<string, TerminalEventEntity[]>> {
    const byKey = new Map<string, TerminalEventEntity[]>(keys.map((key) => [key, []]));
    for (const row of await this.rows.eventsOf(keys)) byKey.get(row.transactionKey)?.push(row);
    return byKey;
  }
}
