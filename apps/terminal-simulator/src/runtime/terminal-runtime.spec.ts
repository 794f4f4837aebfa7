import { ContractError } from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';
import { acknowledgementOf, outcomeOf, type OperationReply } from '@tps/link';
import type { ManualTimers } from './testing/manual-timers';
import { abortOrder, harness, order } from './testing/runtime-harness';

function statuses(events: TransactionEvent[]): string[] {
  return events.map((e) => e.status);
}

/**
 * The reply to an operation once the terminal's waits of 0 ms (pace instant) have passed: an async
 * one answers with its first stored run, which at pace instant comes after them.
 */
async function answer(reply: Promise<OperationReply>, timers: ManualTimers): Promise<OperationReply> {
  await timers.advance(0);
  return reply;
}

function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no refusal',
    (error: unknown) => (error instanceof ContractError ? error.code : String(error)),
  );
}

describe('TerminalRuntime: the rows of contract §10', () => {
  it.each([
    ['00', ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'], 'CHIP', 'CREDIT'],
    ['07', ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'], 'CHIP', 'DEBIT'],
    ['08', ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'], 'CONTACTLESS', 'CREDIT'],
    ['09', ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'], 'MAGNETIC_STRIPE', 'CREDIT'],
  ])('%s: approved, in order, with reading type and card', async (ending, later, reading, cardType) => {
    const { runtime, store, timers, errors } = harness();
    const charge = order(ending, 'sync');
    const done = runtime.operate(charge);
    await timers.runAll();
    const reply = await done;
    const events = store.eventsOf(charge.clientTransactionId);
    expect(statuses(events)).toEqual(['TERMINAL_ACKNOWLEDGED', ...later]);
    expect(events.slice(1).map((e) => [e.interaction_attempt, e.reading_type])).toEqual(
      later.map(() => [1, reading]),
    );
    expect(outcomeOf(reply.events)).toMatchObject({
      kind: 'acquirer',
      response: { approved: true, responseCode: '00', rawResponse: { card_type: cardType } },
    });
    expect(errors).toEqual([]);
  });

  it.each(['05', '51', '54', '55', '61'])('%s: DECLINED with that ISO code', async (code) => {
    const { runtime, store, timers } = harness();
    const charge = order(code, 'sync', 'authorization');
    const done = runtime.operate(charge);
    await timers.runAll();
    const reply = await done;
    const events = store.eventsOf(charge.clientTransactionId);
    expect(statuses(events)).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'DECLINED',
    ]);
    expect(events[3].failure_reason).toEqual({ type: 'ACQUIRER', code, message: expect.any(String) });
    expect(outcomeOf(reply.events)).toMatchObject({
      kind: 'acquirer',
      response: { approved: false, responseCode: code },
    });
  });

  it.each([
    ['91', 'TER-101'],
    ['92', 'TER-102'],
    ['96', 'TER-103'],
  ])('%s: TERMINAL_REJECTED %s straight from TERMINAL_ACKNOWLEDGED', async (ending, code) => {
    const { runtime, store, timers } = harness();
    const charge = order(ending, 'sync');
    const done = runtime.operate(charge);
    await timers.runAll();
    const reply = await done;
    const events = store.eventsOf(charge.clientTransactionId);
    expect(statuses(events)).toEqual(['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED']);
    expect(events[1].failure_reason).toEqual({ type: 'TERMINAL', code, message: expect.any(String) });
    expect(events[1]).not.toHaveProperty('interaction_attempt');
    expect(outcomeOf(reply.events)).toEqual({
      kind: 'terminal',
      error: { type: 'TERMINAL', code, message: expect.any(String) },
    });
  });

  it('93: a second card presentation, attempt 2, read CONTACTLESS, then approved', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('93');
    await answer(runtime.operate(charge), timers);
    await timers.runAll();
    const events = store.eventsOf(charge.clientTransactionId);
    expect(events.map((e) => [e.status, e.interaction_attempt, e.reading_type])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', undefined, undefined],
      ['CARD_PRESENTED', 1, 'CHIP'],
      ['CARD_PRESENTED', 2, 'CONTACTLESS'],
      ['APPROVAL_REQUESTED', 2, 'CONTACTLESS'],
      ['APPROVAL', 2, 'CONTACTLESS'],
    ]);
  });

  it('94: canceled by the cardholder after CARD_PRESENTED; sync answers TER-104', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('94', 'sync');
    const done = runtime.operate(charge);
    await timers.runAll();
    expect(outcomeOf((await done).events)).toMatchObject({ kind: 'terminal', error: { code: 'TER-104' } });
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'TERMINAL_CANCELED',
    ]);
  });

  it('95: the acquirer answers only after 10 s, even at instant pace', async () => {
    const { runtime, store, timers } = harness('instant');
    const charge = order('95');
    const reply = await answer(runtime.operate(charge), timers);
    // The async reply goes before the acquirer's wait, with what was stored before it.
    expect(statuses(reply.events.map((link) => link.event))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
    ]);
    await timers.advance(9_999);
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL_REQUESTED');
    await timers.advance(1);
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL');
  });

  it('97: waits for a person for 60 s, then TER-101', async () => {
    const { runtime, store, timers } = harness('instant');
    const charge = order('97');
    await runtime.operate(charge);
    await timers.advance(59_999);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    await timers.advance(1);
    const events = store.eventsOf(charge.clientTransactionId);
    expect(statuses(events)).toEqual(['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED']);
    expect(events[1].failure_reason).toMatchObject({ type: 'TERMINAL', code: 'TER-101' });
    expect(runtime.busy).toBe(false);
  });

  it('97: the card control presents a card with its reading type, and the charge is approved', async () => {
    const { runtime, store, timers } = harness('instant');
    const charge = order('97');
    await runtime.operate(charge);
    await timers.advance(30_000);
    expect(runtime.card({ action: 'present', readingType: 'MAGNETIC_STRIPE' })).toEqual({
      client_transaction_id: charge.clientTransactionId,
      action: 'present',
    });
    await timers.runAll();
    const events = store.eventsOf(charge.clientTransactionId);
    expect(events.map((e) => [e.status, e.interaction_attempt, e.reading_type])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', undefined, undefined],
      ['CARD_PRESENTED', 1, 'MAGNETIC_STRIPE'],
      ['APPROVAL_REQUESTED', 1, 'MAGNETIC_STRIPE'],
      ['APPROVAL', 1, 'MAGNETIC_STRIPE'],
    ]);
  });

  it('97: the card control cancels; afterwards nothing waits for a card (TRX-006)', async () => {
    const { runtime, store, timers } = harness('instant');
    const charge = order('97');
    await runtime.operate(charge);
    runtime.card({ action: 'cancel' });
    await timers.runAll();
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'TERMINAL_CANCELED',
    ]);
    expect(() => runtime.card({ action: 'cancel' })).toThrow(expect.objectContaining({ code: 'TRX-006' }));
  });

  it('cardholder manual: an ordinary charge waits for the card action, then follows its scenario', async () => {
    const { runtime, store, timers } = harness('instant');
    runtime.update({ ...runtime.profile, cardholder: 'manual' });
    const charge = order('51');
    await runtime.operate(charge);
    await timers.advance(59_000);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    runtime.card({ action: 'present', readingType: 'CONTACTLESS' });
    await timers.runAll();
    const events = store.eventsOf(charge.clientTransactionId);
    expect(events.map((e) => [e.status, e.reading_type])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', undefined],
      ['CARD_PRESENTED', 'CONTACTLESS'],
      ['APPROVAL_REQUESTED', 'CONTACTLESS'],
      ['DECLINED', 'CONTACTLESS'],
    ]);
    expect(events[3].failure_reason).toMatchObject({ type: 'ACQUIRER', code: '51' });
  });

  it('cardholder manual: nobody acts for 60 s, TER-101; back to auto, the table decides alone', async () => {
    const { runtime, store, timers } = harness('instant');
    runtime.update({ ...runtime.profile, cardholder: 'manual' });
    const waiting = order('00');
    await runtime.operate(waiting);
    await timers.advance(60_000);
    const events = store.eventsOf(waiting.clientTransactionId);
    expect(statuses(events)).toEqual(['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED']);
    expect(events[1].failure_reason).toMatchObject({ code: 'TER-101' });

    runtime.update({ ...runtime.profile, cardholder: 'auto' });
    const alone = order('00');
    await answer(runtime.operate(alone), timers);
    await timers.runAll();
    expect(statuses(store.eventsOf(alone.clientTransactionId)).at(-1)).toBe('APPROVAL');
  });

  it('scales ordinary waits with pace: a realistic card read takes 1.5 s', async () => {
    const { runtime, store, timers } = harness('realistic');
    const charge = order('00');
    await runtime.operate(charge);
    await timers.advance(1_499);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    await timers.advance(1);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toContain('CARD_PRESENTED');
  });
});

describe('TerminalRuntime: when events are stored', () => {
  it('at pace instant, stores a sync lifecycle in one write', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('00', 'sync');
    const done = runtime.operate(charge);
    await timers.runAll();
    const reply = await done;
    expect(store.writes).toBe(1);
    expect(reply.events.map((link) => link.event)).toEqual(store.eventsOf(charge.clientTransactionId));
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
  });

  it('at pace instant, stores an async lifecycle in one write and answers with all of it', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('00', 'async');
    let answered = false;
    const done = runtime.operate(charge).finally(() => (answered = true));
    await Promise.resolve();
    // Nothing is stored yet, so nothing is answered: the reply carries stored events only.
    expect(answered).toBe(false);
    expect(store.writes).toBe(0);
    const reply = await answer(done, timers);
    expect(store.writes).toBe(1);
    expect(reply.events.map((link) => link.event)).toEqual(store.eventsOf(charge.clientTransactionId));
    expect(statuses(reply.events.map((link) => link.event))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
    expect(runtime.busy).toBe(false);
  });

  it('with its uplink down, an async operation answers with its acknowledgement alone; the rest waits in the queue', async () => {
    const { runtime, store, timers, link } = harness();
    link.isUp = false;
    const charge = order('00', 'async');
    const reply = await runtime.operate(charge);
    expect(statuses(reply.events.map((l) => l.event))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(store.writes).toBe(1);
    await timers.runAll();
    expect(store.writes).toBe(2);
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL');
  });

  it('at pace instant, an async operation that waits for a person answers with its acknowledgement alone', async () => {
    const { runtime, store } = harness();
    const charge = order('97', 'async');
    const reply = await runtime.operate(charge);
    expect(statuses(reply.events.map((link) => link.event))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(runtime.busy).toBe(true);
    runtime.card({ action: 'cancel' });
  });

  it('stores a sync acknowledgement before the first wait that takes time (pace realistic)', async () => {
    const { runtime, store, timers } = harness('realistic');
    const charge = order('00', 'sync');
    const done = runtime.operate(charge);
    await timers.advance(0);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    await timers.runAll();
    await done;
    expect(store.writes).toBe(3);
  });

  it('stores what it emitted before it waits: at pace realistic, CARD_PRESENTED and APPROVAL_REQUESTED go up during the acquirer wait', async () => {
    const { runtime, store, timers } = harness('realistic');
    const charge = order('00', 'async');
    await runtime.operate(charge);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    // The card read (1.5 s) ends; the acquirer's answer takes another second.
    await timers.advance(1500);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
    ]);
    expect(store.writes).toBe(2);
    await timers.advance(1000);
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL');
    expect(store.writes).toBe(3);
  });

  it('a write that fails takes the events emitted before it down too: none of them is stored or answered', async () => {
    const { runtime, store, timers, errors } = harness('realistic');
    const charge = order('00', 'async');
    const record = store.record.bind(store);
    store.record = async (serialNumber, stored, links) => {
      if (links[0].event.status !== 'TERMINAL_ACKNOWLEDGED') throw new Error('disk full');
      return record(serialNumber, stored, links);
    };
    await runtime.operate(charge);
    await timers.runAll();
    expect(errors).toEqual([new Error('disk full')]);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(runtime.busy).toBe(false);

    // An async one whose first write fails (pace instant: the whole lifecycle) answers the failure,
    // stores nothing, and reports nothing besides.
    const instant = harness('instant');
    instant.store.record = async () => {
      throw new Error('disk full');
    };
    const lost = order('00', 'async');
    const refused = refusal(instant.runtime.operate(lost));
    await instant.timers.runAll();
    expect(await refused).toBe('Error: disk full');
    expect(instant.store.eventsOf(lost.clientTransactionId)).toEqual([]);
    expect(instant.errors).toEqual([]);
    expect(instant.runtime.busy).toBe(false);

    // A sync one that fails stores nothing at all, and answers the failure.
    store.record = async () => {
      throw new Error('disk full');
    };
    const sync = order('00', 'sync');
    const done = refusal(runtime.operate(sync));
    await timers.runAll();
    expect(await done).toBe('Error: disk full');
    expect(store.eventsOf(sync.clientTransactionId)).toEqual([]);
    expect(runtime.busy).toBe(false);
  });
});

describe('TerminalRuntime: busy, abort and card control', () => {
  it('refuses a second operation while one runs (TER-003), and the same id twice (TRX-001)', async () => {
    const { runtime, timers } = harness();
    const first = order('97');
    await runtime.operate(first);
    expect(await refusal(runtime.operate(order('00')))).toBe('TER-003');
    expect(await refusal(runtime.operate(first))).toBe('TRX-001');
    await timers.runAll();
    expect(runtime.busy).toBe(false);
  });

  it("refuses an id it ran before (TRX-001) by the store's key, with no read, and emits nothing for it", async () => {
    const { runtime, store, timers, errors, flushes } = harness();
    const first = order('00', 'sync');
    const done = runtime.operate(first);
    await timers.runAll();
    await done;
    const stored = store.events.length;
    const flushed = flushes();

    const refused = refusal(runtime.operate({ ...first, mode: 'async' }));
    await timers.advance(0);
    expect(await refused).toBe('TRX-001');
    expect(store.transactionReads).toBe(0);
    expect(store.events).toHaveLength(stored);
    expect(flushes()).toBe(flushed);
    expect(runtime.busy).toBe(false);

    // An abort order under a used id is refused the same way, and its own lifecycle never starts.
    expect(
      await refusal(
        runtime.operate({ ...abortOrder('sync'), clientTransactionId: first.clientTransactionId }),
      ),
    ).toBe('TRX-001');
    expect(store.events).toHaveLength(stored);

    // The terminal is free: the next operation runs.
    const next = order('00', 'sync');
    const nextDone = runtime.operate(next);
    await timers.runAll();
    expect(outcomeOf((await nextDone).events)).toMatchObject({ kind: 'acquirer' });
    expect(store.transactionReads).toBe(0);
    expect(errors).toEqual([]);
  });

  it('busy with another operation, an id it ran before is still TRX-001 (read on that refusal only)', async () => {
    const { runtime, store, timers } = harness();
    const earlier = order('00', 'sync');
    const done = runtime.operate(earlier);
    await timers.runAll();
    await done;
    await runtime.operate(order('97'));
    expect(await refusal(runtime.operate(earlier))).toBe('TRX-001');
    expect(await refusal(runtime.operate(order('00')))).toBe('TER-003');
    expect(store.transactionReads).toBe(2);
    runtime.card({ action: 'cancel' });
    await timers.runAll();
  });

  it('an abort that comes in while a reused id is being refused finds nothing to abort (TRX-002)', async () => {
    const { runtime, store, timers } = harness();
    const first = order('00', 'sync');
    const done = runtime.operate(first);
    await timers.runAll();
    await done;
    const stored = store.events.length;
    const again = runtime.operate(first);
    // The terminal holds the refused operation until its store answers.
    expect(runtime.busy).toBe(true);
    const abort = runtime.abort('demo-merchant', first.clientTransactionId);
    expect(await refusal(again)).toBe('TRX-001');
    expect(await refusal(abort)).toBe('TRX-002');
    expect(runtime.busy).toBe(false);
    expect(store.events).toHaveLength(stored);
  });

  it('a sync abort before APPROVAL_REQUESTED cancels the target and answers it', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('97', 'sync');
    const sync = runtime.operate(charge);
    await timers.advance(10);
    const aborted = await runtime.abort('demo-merchant', charge.clientTransactionId);
    expect(aborted.answer).toEqual({
      client_transaction_id: charge.clientTransactionId,
      status: 'TERMINAL_CANCELED',
    });
    // The reply carries the canceled transaction's events, so the service stores them first.
    expect(aborted.events.map((link) => link.event.status)).toEqual(
      statuses(store.eventsOf(charge.clientTransactionId)),
    );
    expect(outcomeOf((await sync).events)).toMatchObject({ kind: 'terminal', error: { code: 'TER-104' } });
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'TERMINAL_CANCELED',
    ]);
  });

  it('a sync abort after CARD_PRESENTED (94 at realistic pace) cancels too', async () => {
    const { runtime, store, timers } = harness('realistic');
    const charge = order('94');
    await runtime.operate(charge);
    await timers.advance(1_500);
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('CARD_PRESENTED');
    await runtime.abort('demo-merchant', undefined);
    expect(statuses(store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'TERMINAL_CANCELED',
    ]);
    expect(store.eventsOf(charge.clientTransactionId)[2]).toMatchObject({
      interaction_attempt: 1,
      reading_type: 'CHIP',
    });
  });

  it('an abort past APPROVAL_REQUESTED (95) is TRX-002 and the charge is approved', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('95');
    await answer(runtime.operate(charge), timers);
    await timers.advance(100);
    expect(await refusal(runtime.abort('demo-merchant', charge.clientTransactionId))).toBe('TRX-002');
    expect(await refusal(runtime.abort('demo-merchant', undefined))).toBe('TRX-002');
    await timers.runAll();
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL');
  });

  it('an abort naming another transaction, another merchant, or with nothing running is TRX-002', async () => {
    const { runtime, timers } = harness();
    expect(await refusal(runtime.abort('demo-merchant', undefined))).toBe('TRX-002');
    const charge = order('97');
    await runtime.operate(charge);
    expect(await refusal(runtime.abort('demo-merchant', 'someone-else'))).toBe('TRX-002');
    expect(await refusal(runtime.abort('other-merchant', undefined))).toBe('TRX-002');
    runtime.card({ action: 'cancel' });
    await timers.runAll();
  });

  it('an async abort has its own lifecycle: ACK → CANCELED, after the target’s TERMINAL_CANCELED', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('97');
    await runtime.operate(charge);
    const abort = abortOrder('async', charge.clientTransactionId);
    const reply = await runtime.operate(abort);
    expect(acknowledgementOf(reply.events)).toMatchObject({
      status: 'TERMINAL_ACKNOWLEDGED',
      previous_status: '',
    });
    await timers.runAll();
    expect(store.events.map((e) => [e.event.client_transaction_id, e.event.status])).toEqual([
      [charge.clientTransactionId, 'TERMINAL_ACKNOWLEDGED'],
      [abort.clientTransactionId, 'TERMINAL_ACKNOWLEDGED'],
      [charge.clientTransactionId, 'TERMINAL_CANCELED'],
      [abort.clientTransactionId, 'TERMINAL_CANCELED'],
    ]);
    expect(store.eventsOf(abort.clientTransactionId)[1]).not.toHaveProperty('failure_reason');
  });

  it('an async abort past the point of no return: ACK → TERMINAL_REJECTED with TRX-002', async () => {
    const { runtime, store, timers } = harness();
    const charge = order('95');
    await answer(runtime.operate(charge), timers);
    await timers.advance(1);
    const abort = abortOrder('async');
    await runtime.operate(abort);
    await timers.advance(1);
    const events = store.eventsOf(abort.clientTransactionId);
    expect(statuses(events)).toEqual(['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED']);
    expect(events[1].failure_reason).toEqual({
      type: 'TRANSACTION',
      code: 'TRX-002',
      message: expect.any(String),
    });
    await timers.runAll();
    expect(statuses(store.eventsOf(charge.clientTransactionId)).at(-1)).toBe('APPROVAL');
  });

  it('the card control with nothing waiting is TRX-006; during an ordinary card read it takes the card', async () => {
    const { runtime, store, timers } = harness('realistic');
    expect(() => runtime.card({ action: 'cancel' })).toThrow(expect.objectContaining({ code: 'TRX-006' }));
    const charge = order('00');
    await runtime.operate(charge);
    runtime.card({ action: 'present', readingType: 'CONTACTLESS' });
    await timers.advance(100);
    expect(store.eventsOf(charge.clientTransactionId)[1]).toMatchObject({
      status: 'CARD_PRESENTED',
      reading_type: 'CONTACTLESS',
    });
    expect(() => runtime.card({ action: 'cancel' })).toThrow(expect.objectContaining({ code: 'TRX-006' }));
    await timers.runAll();
  });

  it('a restart closes an interrupted abort with TRX-002 and the target as far as the table allows', async () => {
    const first = harness();
    const charge = order('97');
    await first.runtime.operate(charge);
    // Crash: the abort's acknowledgement is stored, nothing after it.
    const abort = abortOrder('async', charge.clientTransactionId);
    await first.store.record('SIMUNIT001', abort, [
      {
        event: {
          ...first.store.eventsOf(charge.clientTransactionId)[0],
          event_id: 'x',
          client_transaction_id: abort.clientTransactionId,
        },
      },
    ]);
    const restarted = harness('instant', first.store);
    await restarted.runtime.recover();
    expect(statuses(first.store.eventsOf(charge.clientTransactionId))).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'TERMINAL_REJECTED',
    ]);
    expect(first.store.eventsOf(abort.clientTransactionId)[1].failure_reason).toMatchObject({
      code: 'TRX-002',
    });
  });
});
