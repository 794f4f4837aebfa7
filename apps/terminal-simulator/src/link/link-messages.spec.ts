import { SERVICE_UPLINK_SIDE, terminalReply, type OperationReply, type TerminalRequest } from '@tps/link';
import { harness, order } from '../runtime/testing/runtime-harness';

/** The service's check of what a terminal answers to `request`. */
function replyCheck(request: TerminalRequest['type']) {
  return terminalReply({ type: request } as TerminalRequest);
}

/** What the terminal answers, built by the runtime that answers it, passes the service's checks. */
describe('the simulator’s messages as the service checks them', () => {
  it.each([
    ['00', 'approved'],
    ['51', 'declined'],
    ['96', 'rejected on the terminal'],
  ])('an operation reply (%s, %s), and its events as an uplink run', async (ending) => {
    const { runtime, timers } = harness();
    const done = runtime.operate(order(ending, 'sync'));
    await timers.runAll();
    const reply: OperationReply = await done;
    expect(replyCheck('operation').check(reply)).toEqual({ ok: true, value: reply });
    const run = { type: 'events', links: reply.events };
    expect(SERVICE_UPLINK_SIDE.requests.check(run)).toEqual({ ok: true, value: run });
  });

  it('an async operation reply and an abort reply', async () => {
    const { runtime, timers } = harness();
    const charge = order('97');
    const reply = await runtime.operate(charge);
    expect(replyCheck('operation').check(reply).ok).toBe(true);
    await timers.advance(1_000);
    const aborted = await runtime.abort(charge.merchantId, charge.clientTransactionId);
    expect(replyCheck('abort').check(aborted)).toEqual({ ok: true, value: aborted });
  });

  it('a card reply', async () => {
    const { runtime, timers } = harness();
    const charge = order('97');
    await runtime.operate(charge);
    await timers.advance(1_000);
    const card = runtime.card({ action: 'present', readingType: 'CHIP' });
    expect(replyCheck('card').check(card)).toEqual({ ok: true, value: card });
    await timers.runAll();
  });
});
