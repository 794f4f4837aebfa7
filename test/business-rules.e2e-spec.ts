import { OTHER_MERCHANT, Stack, poll, type SignedClient } from '@tps/testing';
import {
  amountOf,
  ensureDaytime,
  recorded,
  newBody,
  operate,
  operationPath,
  secondsTo22h,
  type Json,
} from './payment-helpers';
import { describeOnStores } from './stores';

const DAY = 24 * 60 * 60;

describeOnStores('business state of contract §9, on the merchant clock', (store) => {
  let stack: Stack;
  let client: SignedClient;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    client = stack.client();
    await ensureDaytime(client);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function sync(
    type: string,
    fields: Json,
  ): Promise<{ status: number; body: Json; reference: string | null }> {
    const done = await operate(client, 'cloud', 'sync', type, newBody(fields));
    return { status: done.response.status, body: done.response.body, reference: done.reference };
  }

  async function approved(type: string, fields: Json): Promise<string> {
    const done = await sync(type, fields);
    expect(done.status).toBe(200);
    expect(done.body.approved).toBe(true);
    return done.reference as string;
  }

  function expectRefused(done: { status: number; body: Json }, code: string): void {
    expect(done.status).toBe(code.startsWith('NF') ? 404 : 409);
    expect(done.body).toMatchObject({ type: code.startsWith('NF') ? 'NOT_FOUND' : 'TRANSACTION', code });
  }

  async function businessState(reference: string): Promise<string> {
    const answer = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      transaction_reference: reference,
    });
    return answer.body.items[0].business_state;
  }

  it('refuses an over-capture with TRX-005, then captures at most the authorized amount once', async () => {
    const auth = await approved('authorization', { amount: amountOf(10000) });
    expectRefused(await sync('capture', { transaction_reference: auth, amount: amountOf(10001) }), 'TRX-005');
    const capture = await sync('capture', { transaction_reference: auth, amount: amountOf(10000) });
    expect(capture.body.rawResponse.authorized_amount).toBe(10000);
    expectRefused(await sync('capture', { transaction_reference: auth, amount: amountOf(100) }), 'TRX-006');
    expect(await businessState(auth)).toBe('CAPTURED');
    expect(await businessState(capture.reference as string)).toBe('SETTLED');
  });

  it('refuses the capture of a voided authorization with TRX-006', async () => {
    const auth = await approved('authorization', { amount: amountOf(5000) });
    await approved('void', { transaction_reference: auth });
    expect(await businessState(auth)).toBe('VOIDED');
    expectRefused(await sync('capture', { transaction_reference: auth }), 'TRX-006');
    expectRefused(await sync('void', { transaction_reference: auth }), 'TRX-006');
  });

  it('takes one tip on a settled charge: a second is TRX-006, also named by the tip reference', async () => {
    const charge = await approved('charge', { amount: amountOf(8000) });
    const tip = await approved('pos_tip', { transaction_reference: charge, tip: 800 });
    expectRefused(await sync('pos_tip', { transaction_reference: charge, tip: 100 }), 'TRX-006');
    expectRefused(await sync('pos_tip', { transaction_reference: tip, tip: 100 }), 'TRX-006');
    expectRefused(await sync('capture', { transaction_reference: charge }), 'TRX-006');
    expect(await businessState(charge)).toBe('SETTLED');
  });

  it('refunds at most amount plus tip: an over-refund is TRX-005, then REFUNDED refuses more', async () => {
    const charge = await approved('charge', { amount: amountOf(10000) });
    await approved('pos_tip', { transaction_reference: charge, tip: 1000 });
    const first = await sync('refund', { transaction_reference: charge, amount: amountOf(6000) });
    expect(first.body.rawResponse.authorized_amount).toBe(6000);
    expect(await businessState(charge)).toBe('PARTIALLY_REFUNDED');
    expectRefused(await sync('refund', { transaction_reference: charge, amount: amountOf(5001) }), 'TRX-005');
    const rest = await sync('refund', { transaction_reference: charge });
    expect(rest.body.rawResponse.authorized_amount).toBe(5000);
    expect(await businessState(charge)).toBe('REFUNDED');
    expectRefused(await sync('refund', { transaction_reference: charge, amount: amountOf(1) }), 'TRX-006');
    expectRefused(await sync('void', { transaction_reference: charge }), 'TRX-006');
  });

  it('keeps the largest amounts whole: a 99,999,999 peso charge, as large a tip, a refund of both', async () => {
    // Beyond a 32-bit integer: the tip, the business tip and the refunded total are 64-bit on both stores.
    const largest = 9_999_999_900;
    const charge = await approved('charge', { amount: amountOf(largest) });
    await approved('pos_tip', { transaction_reference: charge, tip: largest });
    const refund = await sync('refund', { transaction_reference: charge });
    expect(refund.body.rawResponse.authorized_amount).toBe(2 * largest);
    expect(await businessState(charge)).toBe('REFUNDED');
    const answer = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      transaction_reference: charge,
    });
    expect(answer.body.items[0]).toMatchObject({ amount: { tip: largest, total: 2 * largest } });
  });

  it('lets only one of two refunds racing on two terminals pass when both would exceed the charge', async () => {
    const charge = await approved('charge', { amount: amountOf(10000) });
    // Both terminals idle first, so that the race is between the refunds, not with earlier work.
    await operate(client, 'local', 'sync', 'charge', newBody({ amount: amountOf(100) }));
    const [local, cloud] = await Promise.all(
      (['local', 'cloud'] as const).map((form) =>
        client.post<Json>(
          operationPath(form, 'sync', 'refund'),
          newBody({ transaction_reference: charge, amount: amountOf(6000) }),
        ),
      ),
    );
    const answers = [local, cloud];
    expect(answers.filter((a) => a.status === 200 && a.body.approved === true)).toHaveLength(1);
    const refused = answers.find((a) => a.status !== 200) as { status: number; body: Json };
    expect(refused.status).toBe(409);
    expect(['TRX-005', 'TRX-007']).toContain(refused.body.code);
    expect(await businessState(charge)).toBe('PARTIALLY_REFUNDED');
  });

  it('refuses a refund while another on the same charge runs with TRX-007 and Retry-After, then takes it', async () => {
    const charge = await approved('charge', { amount: amountOf(10000) });
    // The first refund waits for a cardholder on SIM0000001: it is running, with no outcome yet.
    expect((await client.patch('/sandbox/terminals/SIM0000001', { cardholder: 'manual' })).status).toBe(200);
    const first = newBody({ transaction_reference: charge, amount: amountOf(3000) });
    const waiting = client.post<Json>(operationPath('local', 'sync', 'refund'), first);
    await recorded(stack, first.client_transaction_id, 10_000);
    const second = newBody({ transaction_reference: charge, amount: amountOf(3000) });
    const refused = await client.post<Json>(operationPath('cloud', 'sync', 'refund'), second);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      type: 'TRANSACTION',
      code: 'TRX-007',
      param: 'transaction_reference',
    });
    expect(refused.headers.get('retry-after')).toBe('1');
    // The cardholder cancels: the first refund ends, and the same request asked again is taken.
    await poll(
      'the waiting refund to be canceled',
      async () => {
        const cancel = await client.post('/sandbox/terminals/SIM0000001/card', { action: 'cancel' });
        return cancel.status === 200 ? true : undefined;
      },
      10_000,
    );
    expect((await waiting).body).toMatchObject({ code: 'TER-104' });
    await client.patch('/sandbox/terminals/SIM0000001', { cardholder: 'auto' });
    const retried = await client.post<Json>(operationPath('cloud', 'sync', 'refund'), second);
    expect(retried.status).toBe(200);
    expect(retried.body.approved).toBe(true);
    expect(await businessState(charge)).toBe('PARTIALLY_REFUNDED');
  });

  it('answers NF-001 for an unknown reference and for another merchant’s', async () => {
    expectRefused(
      await sync('capture', { transaction_reference: '00000000-0000-4000-8000-000000000000' }),
      'NF-001',
    );
    const other = client.as(OTHER_MERCHANT);
    const theirs = await other.post<Json>(
      operationPath('local', 'sync', 'authorization'),
      newBody({ amount: amountOf(3000) }),
    );
    expect(theirs.status).toBe(200);
    const reference = theirs.body.rawResponse.transaction_reference;
    for (const type of ['capture', 'void']) {
      expectRefused(await sync(type, { transaction_reference: reference }), 'NF-001');
    }
    expectRefused(await sync('refund', { transaction_reference: reference }), 'NF-001');
  });

  it('refuses a zero tip and a zero amount with PAR-003, and a decimal one with PAR-002', async () => {
    const charge = await approved('charge', { amount: amountOf(2000) });
    const zeroTip = await client.post<Json>(
      operationPath('cloud', 'sync', 'pos_tip'),
      newBody({ transaction_reference: charge, tip: 0 }),
    );
    expect(zeroTip.body).toMatchObject({ code: 'PAR-003', param: 'tip' });
    const decimalTip = await client.post<Json>(
      operationPath('cloud', 'sync', 'pos_tip'),
      newBody({ transaction_reference: charge, tip: 1.5 }),
    );
    expect(decimalTip.body).toMatchObject({ code: 'PAR-002', param: 'tip' });
    const zeroRefund = await client.post<Json>(
      operationPath('cloud', 'sync', 'refund'),
      newBody({ transaction_reference: charge, amount: amountOf(0) }),
    );
    expect(zeroRefund.body).toMatchObject({ code: 'PAR-003', param: 'amount' });
    const tipOnCharge = await client.post<Json>(
      operationPath('cloud', 'sync', 'charge'),
      newBody({ amount: amountOf(100), tip: 10 }),
    );
    expect(tipOnCharge.body).toMatchObject({ code: 'PAR-001', param: 'tip' });
  });

  describe('moving the sandbox clock', () => {
    it('reads and moves the merchant clock, and no other merchant’s', async () => {
      const before = (await client.get<Json>('/sandbox/clock')).body;
      expect(before).toEqual({
        now: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        local: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-06:00$/),
        offset_seconds: expect.any(Number),
      });
      expect(Date.parse(before.local)).toBe(Date.parse(before.now));
      const other = (await client.as(OTHER_MERCHANT).get<Json>('/sandbox/clock')).body;
      const moved = await client.post<Json>('/sandbox/clock', { advance_seconds: 60 });
      expect(moved.status).toBe(200);
      expect(moved.body.offset_seconds).toBe(before.offset_seconds + 60);
      expect((await client.as(OTHER_MERCHANT).get<Json>('/sandbox/clock')).body.offset_seconds).toBe(
        other.offset_seconds,
      );
      for (const bad of [-1, 1.5, '60']) {
        const refused = await client.post<Json>('/sandbox/clock', { advance_seconds: bad });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'PAR-002', param: 'advance_seconds' });
      }
    });

    it('dates what is written on the merchant clock', async () => {
      const clock = (await client.get<Json>('/sandbox/clock')).body;
      const done = await sync('charge', { amount: amountOf(1200) });
      expect(done.body.timestamp).toBeGreaterThanOrEqual(Date.parse(clock.now));
      expect(done.body.timestamp - Date.now()).toBeGreaterThan(clock.offset_seconds * 1000 - 60_000);
      const item = (
        await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
          transaction_reference: done.reference,
        })
      ).body.items[0];
      expect(Date.parse(item.created_at)).toBeGreaterThanOrEqual(Date.parse(clock.now));
      for (const event of item.events)
        expect(Date.parse(event.occurred_at)).toBeGreaterThanOrEqual(Date.parse(clock.now));
    });

    it('refuses a void from 22:00 Mexico City with TRX-003; a refund is then accepted', async () => {
      await ensureDaytime(client);
      const charge = await approved('charge', { amount: amountOf(9000) });
      const auth = await approved('authorization', { amount: amountOf(9000) });
      await client.post('/sandbox/clock', { advance_seconds: (await secondsTo22h(client)) - 30 });
      // 21:59:30 local: still allowed.
      const early = await approved('authorization', { amount: amountOf(1000) });
      await approved('void', { transaction_reference: early });
      await client.post('/sandbox/clock', { advance_seconds: 30 });
      expect((await client.get<Json>('/sandbox/clock')).body.local).toMatch(/T22:00:\d{2}\.\d{3}-06:00$/);
      expectRefused(await sync('void', { transaction_reference: charge }), 'TRX-003');
      expectRefused(await sync('void', { transaction_reference: auth }), 'TRX-003');
      const refund = await sync('refund', { transaction_reference: charge });
      expect(refund.status).toBe(200);
      expect(refund.body.approved).toBe(true);
      expect(await businessState(charge)).toBe('REFUNDED');
      // After the cut-off the authorization can still be captured.
      await approved('capture', { transaction_reference: auth });
    });

    it('expires a credit pre-authorization after 28 days: TRX-004 after moving 29', async () => {
      await ensureDaytime(client);
      const auth = await approved('authorization', { amount: amountOf(6000) });
      const renewed = await approved('authorization', { amount: amountOf(6000) });
      await client.post('/sandbox/clock', { advance_seconds: 20 * DAY });
      expect(await businessState(auth)).toBe('AUTHORIZED');
      await approved('re_authorization', { transaction_reference: renewed, amount: amountOf(7000) });
      await client.post('/sandbox/clock', { advance_seconds: 9 * DAY });
      expect(await businessState(auth)).toBe('EXPIRED');
      expectRefused(await sync('capture', { transaction_reference: auth }), 'TRX-004');
      expectRefused(
        await sync('re_authorization', { transaction_reference: auth, amount: amountOf(100) }),
        'TRX-004',
      );
      expectRefused(await sync('void', { transaction_reference: auth }), 'TRX-004');
      // 29 days after its approval but 9 after its re-authorization: the renewed one still holds.
      expect(await businessState(renewed)).toBe('AUTHORIZED');
      const capture = await sync('capture', { transaction_reference: renewed });
      expect(capture.body.rawResponse.authorized_amount).toBe(7000);
    });
  });
});
