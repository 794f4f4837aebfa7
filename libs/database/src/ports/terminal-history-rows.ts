import type { EntityTarget, ObjectLiteral } from 'typeorm';

/** The transaction's properties the history's statements name (the simulator's transactions). */
export interface HistoryTransaction extends ObjectLiteral {
  key: string;
  serialNumber: string;
  status: string;
  createdAt: string;
}

/** The event's properties the history's statements name (the simulator's events). */
export interface HistoryEvent extends ObjectLiteral {
  seq: number;
  transactionKey: string;
}

/** The entities of a terminal's store whose rows the history reads (the simulator's). */
export interface TerminalHistoryTables<Transaction extends HistoryTransaction, Event extends HistoryEvent> {
  transactions: EntityTarget<Transaction>;
  events: EntityTarget<Event>;
}

/** What a page of a terminal's transactions is narrowed by; each bound given is inclusive. */
export interface HistoryPage {
  serialNumber: string;
  /** The start every key of the page has. */
  keyPrefix: string;
  key?: string;
  status?: string;
  /** Bounds on `createdAt` (ISO 8601 UTC, compared as text). */
  from?: string;
  to?: string;
  /** The page starts after this transaction, in the page's order. */
  after?: { at: string; key: string };
  take: number;
}

/** A terminal's own records, read for local search (contract §7). */
export abstract class TerminalHistoryRows<
  Transaction extends HistoryTransaction,
  Event extends HistoryEvent,
> {
  /** The transactions `page` picks, newest first (`createdAt`, then `key`, descending). */
  abstract page(page: HistoryPage): Promise<Transaction[]>;
  /** The events of the transactions of these keys, in emission order (`seq`). */
  abstract eventsOf(keys: readonly string[]): Promise<Event[]>;
}
