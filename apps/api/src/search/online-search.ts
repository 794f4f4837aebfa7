import { Injectable } from '@nestjs/common';
import {
  decodeCursor,
  encodeCursor,
  searchAmount,
  searchCard,
  type SearchAnswer,
  type SearchFilters,
  type SearchItem,
} from '@tps/contracts';
import { ContractError, businessRecordOf, currentState } from '@tps/domain';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantClock } from '../clock/merchant-clock';
import type { TransactionEventEntity } from '../transactions/transaction-event.entity';
import type { TransactionEntity } from '../transactions/transaction.entity';
import { TransactionRepository } from '../transactions/transaction.repository';

/** Online transaction search (contract §7): the service's records of the whole merchant. */
@Injectable()
export class OnlineSearch {
  constructor(
    private readonly clock: MerchantClock,
    private readonly transactions: TransactionRepository,
  ) {}

  async search(merchant: MerchantEntity, filters: SearchFilters): Promise<SearchAnswer> {
    const after = filters.cursor === undefined ? undefined : decodeCursor(filters.cursor);
    if (filters.cursor !== undefined && (after === undefined || !/^\d+$/.test(after.at))) {
      throw new ContractError('PAR-002', 'cursor is not a cursor of this search', 'cursor');
    }
    const rows = await this.transactions.searchPage(merchant.merchantId, filters, after, filters.limit + 1);
    const page = rows.slice(0, filters.limit);
    const events = await this.transactions.eventsOfMany(page.map((row) => row.id));
    const now = this.clock.now(merchant).getTime();
    const last = page[page.length - 1];
    return {
      items: page.map((row) => this.item(row, events.get(row.id) ?? [], now)),
      next_cursor:
        rows.length > filters.limit && last !== undefined
          ? encodeCursor({ at: String(last.createdAtMs), key: last.id })
          : null,
    };
  }

  private item(row: TransactionEntity, events: TransactionEventEntity[], now: number): SearchItem {
    const response = row.outcome?.kind === 'acquirer' ? row.outcome.response : null;
    const record = businessRecordOf(row);
    return {
      client_transaction_id: row.clientTransactionId,
      transaction_reference: row.transactionReference,
      operation_type: row.operationType,
      status: row.status,
      business_state: record === null ? null : currentState(record, now),
      terminal_serial: row.terminalSerial,
      amount: searchAmount(row.amount, row.operationType === 'pos_tip' ? row.tip : row.businessTip),
      card: searchCard(response),
      created_at: new Date(row.createdAtMs).toISOString(),
      events: events.map((e) => ({
        event_id: e.eventId,
        status: e.status,
        previous_status: e.previousStatus,
        occurred_at: e.occurredAt,
      })),
    };
  }
}
