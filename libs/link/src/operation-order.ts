import type { AmountCentavos, OperationMode, OperationType, ReadingType } from '@tps/domain';

/** What the card looked like on the transaction a follow-up operation acts on. */
export interface OriginalCard {
  readingType: ReadingType;
  cardType: string;
  franchise: string;
  pan: string;
  bin: string;
}

/** An operation the service hands to a terminal, after validating it. */
export interface OperationOrder {
  type: OperationType;
  mode: OperationMode;
  /** The route the request came by: Local (the bound terminal) or Cloud (the serial in the path). */
  form: 'local' | 'cloud';
  merchantId: string;
  clientTransactionId: string;
  amount: AmountCentavos;
  tip?: number;
  metadata: Record<string, string>;
  /** Empty string when the caller gave none. */
  eventsWebhookUrl: string;
  transactionReference?: string;
  original?: OriginalCard;
  targetClientTransactionId?: string;
  /** The merchant's sandbox clock offset, so the terminal dates events on the merchant's clock. */
  clockOffsetMs: number;
}
