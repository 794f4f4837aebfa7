import { ZERO_AMOUNT, type AmountCentavos } from '../amounts';
import type { EventRunReads, RunLink } from '../event-run';
import type { LifecycleStatus } from '../lifecycle';
import type { EventEnvelope, EventOutcome, TransactionRecord } from '../transaction-record';

/** Stored transactions and events for unit specs of the money rules, without a database. */

export const MERCHANT = 'merchant-1';
export const TERMINAL = { serialNumber: 'SIM0000001', merchantId: MERCHANT };
export const APPROVED_AT = Date.UTC(2026, 10, 23, 15, 0, 0);

export function amountOf(total: number): AmountCentavos {
  return { ...ZERO_AMOUNT, extraTaxes: { ...ZERO_AMOUNT.extraTaxes }, subtotalIva: total };
}

let next = 0;

export function recordOf(fields: Partial<TransactionRecord> = {}): TransactionRecord {
  next += 1;
  return {
    id: `id-${next}`,
    merchantId: MERCHANT,
    clientTransactionId: `ctid-${next}`,
    operationType: 'charge',
    terminalSerial: TERMINAL.serialNumber,
    status: null,
    amount: amountOf(10_000),
    tip: 0,
    transactionReference: null,
    targetReference: null,
    acknowledgement: null,
    outcome: null,
    businessState: null,
    businessAmount: null,
    businessTip: 0,
    refundedTotal: 0,
    cardType: null,
    approvedAtMs: null,
    validFromMs: null,
    eventCount: 0,
    ...fields,
  };
}

/** An approved record of its own (charge, authorization or capture), as stored after its approval. */
export function approvedRecordOf(fields: Partial<TransactionRecord>): TransactionRecord {
  return recordOf({
    status: 'APPROVAL',
    eventCount: 4,
    cardType: 'CREDIT',
    businessState: fields.operationType === 'authorization' ? 'AUTHORIZED' : 'SETTLED',
    businessAmount: fields.amount ?? amountOf(10_000),
    approvedAtMs: APPROVED_AT - 60_000,
    validFromMs: APPROVED_AT - 60_000,
    outcome: approvalOf(fields.transactionReference ?? 'ref'),
    ...fields,
  });
}

export function eventOf(
  record: Pick<TransactionRecord, 'merchantId' | 'clientTransactionId'>,
  previous: LifecycleStatus | '',
  status: LifecycleStatus,
  eventId = `${record.clientTransactionId}:${status}`,
): EventEnvelope {
  return {
    event_id: eventId,
    previous_status: previous,
    status,
    merchant_id: record.merchantId,
    client_transaction_id: record.clientTransactionId,
    occurred_at: new Date(APPROVED_AT).toISOString(),
  };
}

export function approvalOf(reference: string, cardType = 'CREDIT'): EventOutcome {
  return {
    kind: 'acquirer',
    response: {
      approved: true,
      timestamp: APPROVED_AT,
      rawResponse: { transaction_reference: reference, card_type: cardType },
    },
  };
}

/** A transaction's whole lifecycle from no state, its outcome beside the final event. */
export function lifecycleOf(
  record: Pick<TransactionRecord, 'merchantId' | 'clientTransactionId'>,
  outcome: EventOutcome,
): RunLink[] {
  return [
    { event: eventOf(record, '', 'TERMINAL_ACKNOWLEDGED') },
    { event: eventOf(record, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED') },
    { event: eventOf(record, 'CARD_PRESENTED', 'APPROVAL_REQUESTED') },
    { event: eventOf(record, 'APPROVAL_REQUESTED', 'APPROVAL'), outcome },
  ];
}

/** What is stored, read as a run reads it; counts the reads. */
export class StoredRows implements EventRunReads<TransactionRecord> {
  readonly reads: string[] = [];

  constructor(
    readonly rows: TransactionRecord[],
    readonly storedEvents: string[] = [],
  ) {}

  async byName(merchantId: string, clientTransactionId: string): Promise<TransactionRecord | null> {
    this.reads.push(`name ${clientTransactionId}`);
    const row = this.rows.find(
      (r) => r.merchantId === merchantId && r.clientTransactionId === clientTransactionId,
    );
    return row === undefined ? null : { ...row };
  }

  async byReference(merchantId: string, reference: string): Promise<TransactionRecord | null> {
    this.reads.push(`reference ${reference}`);
    const row = this.rows.find((r) => r.merchantId === merchantId && r.transactionReference === reference);
    return row === undefined ? null : { ...row };
  }

  async isStored(eventId: string): Promise<boolean> {
    this.reads.push(`event ${eventId}`);
    return this.storedEvents.includes(eventId);
  }
}
