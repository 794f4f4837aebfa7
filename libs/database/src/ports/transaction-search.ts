import type { ObjectLiteral } from 'typeorm';

/** The transaction's columns the search names. */
export interface SearchedTransaction extends ObjectLiteral {
  id: string;
  merchantId: string;
  status: string | null;
  createdAtMs: number;
}

/** One page of a merchant's search: the filters, where it starts and how many rows it takes. */
export interface TransactionQuery<Transaction extends SearchedTransaction> {
  merchantId: string;
  /** Text columns that hold exactly this value. */
  equal: ReadonlyArray<readonly [keyof Transaction & string, string]>;
  /** Created (merchant clock) at or after. */
  fromMs?: number;
  /** Created (merchant clock) at or before. */
  toMs?: number;
  /** After this transaction in the page's order: an older one, or one as old with a lower id. */
  after?: { atMs: number; id: string };
  take: number;
}

/**
 * A merchant's transactions as a search pages them (contract, "Search"): newest first (creation,
 * then id, both descending), those with no status yet (no terminal acknowledged them) left out.
 */
export abstract class TransactionSearch<Transaction extends SearchedTransaction> {
  abstract page(query: TransactionQuery<Transaction>): Promise<Transaction[]>;
}
