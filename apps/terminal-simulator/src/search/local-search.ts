import { Injectable } from '@nestjs/common';
import {
  encodeCursor,
  decodeCursor,
  searchAmount,
  searchCard,
  searchReference,
  type SearchAnswer,
  type SearchFilters,
  type SearchItem,
} from '@tps/contracts';
import { ContractError } from '@tps/domain';
import type { TerminalEventEntity } from '../store/terminal-event.entity';
import { TerminalHistory } from '../store/terminal-history';
import { transactionKey } from '../store/terminal-store';
import type { TerminalTransactionEntity } from '../store/terminal-transaction.entity';

const BATCH = 200;

function responseOf(row: TerminalTransactionEntity) {
  return row.outcome?.kind === 'acquirer' ? row.outcome.response : null;
}

/** Local transaction search (contract §7): what this terminal itself ran, sent or not. */
@Injectable()
export class LocalSearch {
  constructor(private readonly history: TerminalHistory) {}

  async search(serialNumber: string, merchantId: string, filters: SearchFilters): Promise<SearchAnswer> {
    let after = filters.cursor === undefined ? undefined : decodeCursor(filters.cursor);
    if (filters.cursor !== undefined && after === undefined) {
      throw new ContractError('PAR-002', 'cursor is not a cursor of this search', 'cursor');
    }
    const found: TerminalTransactionEntity[] = [];
    // The order and the outcome are stored whole, so the filters on them apply here, page by page.
    for (;;) {
      const rows = await this.history.page({
        serialNumber,
        merchantId,
        key: filters.clientTransactionId && transactionKey(merchantId, filters.clientTransactionId),
        status: filters.status,
        from: filters.fromMs === undefined ? undefined : new Date(filters.fromMs).toISOString(),
        to: filters.toMs === undefined ? undefined : new Date(filters.toMs).toISOString(),
        after,
        take: BATCH,
      });
      found.push(...rows.filter((row) => this.matches(row, filters)));
      if (found.length > filters.limit || rows.length < BATCH) break;
      const last = rows[rows.length - 1];
      after = { at: last.createdAt, key: last.key };
    }
    const page = found.slice(0, filters.limit);
    const events = await this.history.eventsOf(page.map((row) => row.key));
    const last = page[page.length - 1];
    return {
      items: page.map((row) => this.item(row, events.get(row.key) ?? [])),
      next_cursor:
        found.length > filters.limit && last !== undefined
          ? encodeCursor({ at: last.createdAt, key: last.key })
          : null,
    };
  }

  private matches(row: TerminalTransactionEntity, filters: SearchFilters): boolean {
    if (filters.operationType !== undefined && row.order.type !== filters.operationType) return false;
    if (filters.transactionReference === undefined) return true;
    return searchReference(responseOf(row)) === filters.transactionReference;
  }

  private item(row: TerminalTransactionEntity, events: TerminalEventEntity[]): SearchItem {
    const response = responseOf(row);
    return {
      client_transaction_id: row.order.clientTransactionId,
      transaction_reference: searchReference(response),
      operation_type: row.order.type,
      status: row.status,
      // The terminal keeps lifecycles only; the business state is the service's (online search).
      business_state: null,
      terminal_serial: row.serialNumber,
      amount: searchAmount(row.order.amount, row.order.tip ?? 0),
      card: searchCard(response),
      created_at: row.createdAt,
      events: events.map((e) => ({
        event_id: e.envelope.event_id,
        status: e.envelope.status,
        previous_status: e.envelope.previous_status,
        occurred_at: e.envelope.occurred_at,
      })),
    };
  }
}
