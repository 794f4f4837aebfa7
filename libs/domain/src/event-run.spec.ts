import type { AdoptableOrder } from './adoption';
import { decideEventRun, type RunLink } from './event-run';
import {
  APPROVED_AT,
  MERCHANT,
  StoredRows,
  TERMINAL,
  amountOf,
  approvalOf,
  approvedRecordOf,
  eventOf,
  lifecycleOf,
  recordOf,
} from './testing/transaction-records';
import type { TransactionRecord } from './transaction-record';

/** A record made from an adopted order, as the service's factory would make it. */
function fromOrder(order: AdoptableOrder, details: { targetReference: string | null; createdAt: Date }) {
  return recordOf({
    id: `adopted-${order.clientTransactionId}`,
    merchantId: order.merchantId,
    clientTransactionId: order.clientTransactionId,
    operationType: order.type,
    targetReference: details.targetReference,
    approvedAtMs: details.createdAt.getTime(),
  });
}

function decide(stored: StoredRows, links: RunLink[]) {
  return decideEventRun(TERMINAL, links, stored, fromOrder);
}

describe('decideEventRun: what a terminal’s run of events stores', () => {
  it('a charge’s whole lifecycle: four events in order, one change of the row with its approval', async () => {
    const charge = recordOf();
    const stored = new StoredRows([charge]);
    const links = lifecycleOf(charge, approvalOf('ref-c'));
    const decision = await decide(stored, links);
    expect(decision.refusal).toBeUndefined();
    expect(decision.events.map((e) => [e.sequence, e.previousStatus, e.status])).toEqual([
      [1, '', 'TERMINAL_ACKNOWLEDGED'],
      [2, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED'],
      [3, 'CARD_PRESENTED', 'APPROVAL_REQUESTED'],
      [4, 'APPROVAL_REQUESTED', 'APPROVAL'],
    ]);
    expect(decision.results.map((r) => r.result)).toEqual(['appended', 'appended', 'appended', 'appended']);
    expect(decision.updates).toHaveLength(1);
    expect(decision.updates[0].changes).toEqual({
      status: 'APPROVAL',
      eventCount: 4,
      acknowledgement: links[0].event,
      outcome: approvalOf('ref-c'),
      transactionReference: 'ref-c',
      businessState: 'SETTLED',
      businessAmount: charge.amount,
      cardType: 'CREDIT',
      approvedAtMs: APPROVED_AT,
      validFromMs: APPROVED_AT,
    });
    expect(decision.inserts).toEqual([]);
    expect(decision.targetUpdates).toEqual([]);
    // Read once, whatever the length of the run.
    expect(stored.reads).toEqual([`name ${charge.clientTransactionId}`]);
  });

  it('stops at an event that does not follow: the ones before it are decided, it and the rest are not', async () => {
    const charge = recordOf();
    const [acknowledged, , requested, approved] = lifecycleOf(charge, approvalOf('ref-c'));
    const decision = await decide(new StoredRows([charge]), [acknowledged, requested, approved]);
    expect(decision.results.map((r) => r.result)).toEqual(['appended']);
    expect(decision.events.map((e) => e.status)).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(decision.refusal?.message).toMatch(/follows CARD_PRESENTED but .* is at TERMINAL_ACKNOWLEDGED/);
    expect(decision.updates[0].changes).toMatchObject({ status: 'TERMINAL_ACKNOWLEDGED', eventCount: 1 });
  });

  it('an event stored already is a duplicate, stored or decided earlier in the run: nothing changes', async () => {
    const charge = recordOf({ status: 'CARD_PRESENTED', eventCount: 2 });
    const [acknowledged, presented, requested] = lifecycleOf(charge, approvalOf('ref-c'));
    const stored = new StoredRows([charge], [acknowledged.event.event_id, presented.event.event_id]);
    const decision = await decide(stored, [acknowledged, presented, requested, requested]);
    expect(decision.refusal).toBeUndefined();
    expect(decision.results.map((r) => r.result)).toEqual([
      'duplicate',
      'duplicate',
      'appended',
      'duplicate',
    ]);
    expect(decision.events.map((e) => [e.sequence, e.status])).toEqual([[3, 'APPROVAL_REQUESTED']]);
    // Asked of the store only for the events that do not follow and were not decided in the run.
    expect(stored.reads.filter((read) => read.startsWith('event'))).toEqual([
      `event ${acknowledged.event.event_id}`,
      `event ${presented.event.event_id}`,
    ]);
  });

  it('an event of another terminal’s transaction, or of one with no record and no order, is unknown', async () => {
    const foreign = recordOf({
      terminalSerial: 'SIM0000002',
      status: 'TERMINAL_ACKNOWLEDGED',
      eventCount: 1,
    });
    const decision = await decide(new StoredRows([foreign]), [
      { event: eventOf(foreign, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED') },
      {
        event: eventOf({ merchantId: MERCHANT, clientTransactionId: 'nobody' }, '', 'TERMINAL_ACKNOWLEDGED'),
      },
    ]);
    expect(decision.results.map((r) => r.result)).toEqual(['unknown', 'unknown']);
    expect(decision.events).toEqual([]);
    expect(decision.inserts).toEqual([]);
    expect(decision.updates.every((update) => Object.keys(update.changes).length === 0)).toBe(true);
  });

  it('a capture’s approval settles the capture and marks its authorization CAPTURED', async () => {
    const authorization = approvedRecordOf({ operationType: 'authorization', transactionReference: 'ref-a' });
    const capture = recordOf({ operationType: 'capture', targetReference: 'ref-a', amount: amountOf(8000) });
    const decision = await decide(
      new StoredRows([authorization, capture]),
      lifecycleOf(capture, approvalOf('ref-k')),
    );
    expect(decision.updates[0].changes).toMatchObject({
      businessState: 'SETTLED',
      businessAmount: amountOf(8000),
    });
    expect(decision.targetUpdates).toEqual([
      { record: expect.objectContaining({ id: authorization.id }), changes: { businessState: 'CAPTURED' } },
    ]);
  });

  it('a void of an authorization marks it VOIDED and starts no record of its own', async () => {
    const authorization = approvedRecordOf({ operationType: 'authorization', transactionReference: 'ref-a' });
    const voided = recordOf({ operationType: 'void', targetReference: 'ref-a' });
    const decision = await decide(
      new StoredRows([authorization, voided]),
      lifecycleOf(voided, approvalOf('ref-v')),
    );
    expect(decision.updates[0].changes).not.toHaveProperty('businessState');
    expect(decision.targetUpdates.map((u) => u.changes)).toEqual([{ businessState: 'VOIDED' }]);
  });

  it('a re-authorization replaces the authorized amount with its own and restarts the validity', async () => {
    const authorization = approvedRecordOf({ operationType: 'authorization', transactionReference: 'ref-a' });
    const again = recordOf({
      operationType: 're_authorization',
      targetReference: 'ref-a',
      amount: amountOf(15_000),
    });
    const decision = await decide(
      new StoredRows([authorization, again]),
      lifecycleOf(again, approvalOf('ref-r')),
    );
    expect(decision.targetUpdates.map((u) => u.changes)).toEqual([
      { businessAmount: amountOf(15_000), validFromMs: APPROVED_AT },
    ]);
  });

  it('two refunds in one run add up on their charge, written once', async () => {
    const charge = approvedRecordOf({ transactionReference: 'ref-c' });
    const first = recordOf({ operationType: 'refund', targetReference: 'ref-c', amount: amountOf(4000) });
    const second = recordOf({ operationType: 'refund', targetReference: 'ref-c', amount: amountOf(6000) });
    const stored = new StoredRows([charge, first, second]);
    const decision = await decide(stored, [
      ...lifecycleOf(first, approvalOf('ref-f1')),
      ...lifecycleOf(second, approvalOf('ref-f2')),
    ]);
    expect(decision.targetUpdates).toHaveLength(1);
    expect(decision.targetUpdates[0].changes).toEqual({ refundedTotal: 10_000, businessState: 'REFUNDED' });
    expect(stored.reads.filter((read) => read === 'reference ref-c')).toHaveLength(1);
  });

  it('a follow-up on a charge approved earlier in the same run changes the charge’s own row', async () => {
    const charge = recordOf();
    const refund = recordOf({ operationType: 'refund', targetReference: 'ref-c', amount: amountOf(4000) });
    const decision = await decide(new StoredRows([charge, refund]), [
      ...lifecycleOf(charge, approvalOf('ref-c')),
      ...lifecycleOf(refund, approvalOf('ref-f')),
    ]);
    expect(decision.targetUpdates).toEqual([]);
    expect(decision.updates[0].changes).toMatchObject({
      businessState: 'PARTIALLY_REFUNDED',
      refundedTotal: 4000,
      transactionReference: 'ref-c',
    });
  });

  it('adopts the acknowledgement of a transaction with no record from its order, then follows it', async () => {
    const tip = approvedRecordOf({
      operationType: 'pos_tip',
      transactionReference: 'ref-t',
      targetReference: 'ref-c',
    });
    const name = { merchantId: MERCHANT, clientTransactionId: 'lost-1' };
    const order: AdoptableOrder = { type: 'void', ...name, transactionReference: 'ref-t' };
    const decision = await decide(new StoredRows([tip]), [
      { event: eventOf(name, '', 'TERMINAL_ACKNOWLEDGED'), order },
      { event: eventOf(name, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED') },
    ]);
    // Recorded as first made (no state yet); a tip's reference stands for the charge it tipped.
    expect(decision.inserts).toEqual([
      expect.objectContaining({
        clientTransactionId: 'lost-1',
        status: null,
        eventCount: 0,
        targetReference: 'ref-c',
      }),
    ]);
    expect(decision.inserts[0].approvedAtMs).toBe(APPROVED_AT);
    expect(decision.results.map((r) => r.result)).toEqual(['appended', 'appended']);
    expect(decision.updates.map((u) => [u.record.id, u.changes.status])).toEqual([
      ['adopted-lost-1', 'CARD_PRESENTED'],
    ]);
  });

  it('adopts nothing from an order of another merchant, or beside an event other than the acknowledgement', async () => {
    const name = { merchantId: MERCHANT, clientTransactionId: 'lost-2' };
    const decision = await decide(new StoredRows([]), [
      {
        event: eventOf(name, '', 'TERMINAL_ACKNOWLEDGED'),
        order: { type: 'charge', ...name, merchantId: 'm-2' },
      },
      { event: eventOf(name, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED'), order: { type: 'charge', ...name } },
    ]);
    expect(decision.inserts).toEqual([]);
    expect(decision.results.map((r) => r.result)).toEqual(['unknown', 'unknown']);
  });

  it('leaves the rows it reads as they were read: it changes copies', async () => {
    const charge: TransactionRecord = recordOf();
    const copy = { ...charge };
    const reads = {
      byName: async () => charge,
      byReference: async () => null,
      isStored: async () => false,
    };
    await decideEventRun(TERMINAL, lifecycleOf(charge, approvalOf('ref-c')), reads, fromOrder);
    expect(charge).toEqual(copy);
  });
});
