import { Stack, WebhookReceiver } from '@tps/testing';
import { describeOnStores } from './stores';
import {
  SERIAL_OF,
  UUID,
  amountOf,
  ensureDaytime,
  newBody,
  operate,
  operationPath,
  type Form,
  type Json,
  type Mode,
} from './payment-helpers';

/** The specification's Authorization response, every field present and plausible. */
function expectAuthorizationResponse(body: Json, transactionType: string, authorizedAmount: number): void {
  expect(Object.keys(body).sort()).toEqual(
    [
      'approved',
      'responseCode',
      'authCode',
      'issuerAuthenticationData',
      'issuerScript1',
      'issuerScript2',
      'message',
      'rawResponse',
      'cardData',
      'timestamp',
    ].sort(),
  );
  expect(body.approved).toBe(true);
  expect(body.responseCode).toBe('00');
  expect(body.authCode).toMatch(/^[A-Z0-9]{6}$/);
  expect(body.issuerAuthenticationData).toMatch(/^([0-9A-F]{2})+$/);
  expect(body.issuerScript1).toMatch(/^([0-9A-F]{2})+$/);
  expect(body.issuerScript2).toMatch(/^([0-9A-F]{2})+$/);
  expect(typeof body.message).toBe('string');
  expect(Number.isInteger(body.timestamp)).toBe(true);
  expect(Math.abs(body.timestamp - Date.now())).toBeLessThan(60 * 24 * 3600 * 1000);
  const raw = body.rawResponse;
  expect(raw).toEqual({
    authorized_amount: authorizedAmount,
    card_type: 'CREDIT',
    cvm_type: expect.any(String),
    franchise: 'VISA',
    service_response: { code: expect.stringMatching(/^\d{3}$/), message: expect.any(String) },
    transaction_reference: expect.stringMatching(UUID),
    transaction_status: 'APPROVED',
    transaction_type: transactionType,
    ticket_number: expect.stringMatching(/^\d+$/),
    F11: expect.stringMatching(/^\d{6}$/),
    message_fields: { F38: body.authCode, F39: body.responseCode, F55: expect.any(String) },
  });
  // F55: EMV TLV, tags 91, 71 and 72 carrying the issuer data and scripts.
  const tlv = (tag: string, value: string) =>
    `${tag}${(value.length / 2).toString(16).padStart(2, '0').toUpperCase()}${value}`;
  expect(raw.message_fields.F55).toBe(
    tlv('91', body.issuerAuthenticationData) + tlv('71', body.issuerScript1) + tlv('72', body.issuerScript2),
  );
  expect(body.cardData).toEqual({
    pan: '************4242',
    cardHolderName: expect.any(String),
    cardType: 'CREDIT',
    entryMode: 'CHIP',
    showReciptSignature: expect.any(Boolean),
    cvm: raw.cvm_type,
    aid: expect.stringMatching(/^A0{5}\d+$/),
    bin: '424242',
    isOnlinePinMandatory: false,
  });
}

describeOnStores('every payment operation, sync and async, Local and Cloud form', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
    await ensureDaytime(stack.client());
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const forms: Form[] = ['local', 'cloud'];
  const modes: Mode[] = ['sync', 'async'];
  const combinations = forms.flatMap((form) => modes.map((mode): [Form, Mode] => [form, mode]));

  /** Checks one operation's answer and, for async, its acknowledgement and recorded end. */
  async function run(
    form: Form,
    mode: Mode,
    type: string,
    fields: Json,
    transactionType: string,
    authorized: number,
  ) {
    const client = stack.client();
    const body = newBody(
      mode === 'async' ? { ...fields, events_webhook_url: receiver.url(`/${type}`) } : fields,
    );
    const done = await operate(client, form, mode, type, body);
    expect(done.response.status).toBe(200);
    if (mode === 'sync') {
      expectAuthorizationResponse(done.response.body, transactionType, authorized);
    } else {
      expect(done.response.body).toMatchObject({
        status: 'TERMINAL_ACKNOWLEDGED',
        previous_status: '',
        client_transaction_id: body.client_transaction_id,
        terminal: { serialNumber: SERIAL_OF[form] },
        operation: { type, clientTransactionId: body.client_transaction_id },
      });
      expect(done.item).toMatchObject({
        status: 'APPROVAL',
        operation_type: type,
        terminal_serial: SERIAL_OF[form],
      });
    }
    expect(done.reference).toMatch(UUID);
    return { reference: done.reference as string, body };
  }

  it.each(combinations)(
    '%s form, %s: charge, pos_tip, void; authorization, re_authorization, capture, refund; authorization and void',
    async (form, mode) => {
      const charge = await run(form, mode, 'charge', { amount: amountOf(10000) }, 'SALE', 10000);
      await run(
        form,
        mode,
        'pos_tip',
        { transaction_reference: charge.reference, tip: 1500 },
        'TIP_ADJUSTMENT',
        11500,
      );
      await run(form, mode, 'void', { transaction_reference: charge.reference }, 'VOID', 10000);

      const auth = await run(
        form,
        mode,
        'authorization',
        { amount: amountOf(20000) },
        'PRE_AUTHORIZATION',
        20000,
      );
      await run(
        form,
        mode,
        're_authorization',
        { transaction_reference: auth.reference, amount: amountOf(25000) },
        'RE_AUTHORIZATION',
        25000,
      );
      const capture = await run(
        form,
        mode,
        'capture',
        { transaction_reference: auth.reference, amount: amountOf(24000) },
        'CAPTURE',
        24000,
      );
      // Refund is sync only (contract §2); it acts on the capture of either mode.
      await run(
        form,
        'sync',
        'refund',
        { transaction_reference: capture.reference, amount: amountOf(4000) },
        'REFUND',
        4000,
      );

      const second = await run(
        form,
        mode,
        'authorization',
        { amount: amountOf(3000) },
        'PRE_AUTHORIZATION',
        3000,
      );
      await run(form, mode, 'void', { transaction_reference: second.reference }, 'VOID', 3000);

      const search = await stack
        .client()
        .post<Json>(operationPath(form, 'sync', 'transaction_search_online'), {
          transaction_reference: auth.reference,
        });
      expect(search.body.items).toHaveLength(1);
      expect(search.body.items[0]).toMatchObject({
        business_state: 'CAPTURED',
        operation_type: 'authorization',
      });
    },
  );

  it('documents every route with its body in the OpenAPI document', async () => {
    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as Json;
    const bodies: Record<string, string> = {
      charge: 'AsyncChargeDto',
      authorization: 'AsyncChargeDto',
      capture: 'CaptureDto',
      re_authorization: 'ReAuthorizationDto',
      pos_tip: 'PosTipDto',
      void: 'VoidDto',
      refund: 'RefundDto',
    };
    for (const [type, schema] of Object.entries(bodies)) {
      for (const mode of type === 'refund' ? ['sync'] : ['sync', 'async']) {
        for (const path of [
          `/terminal/v1/${mode}/${type}`,
          `/terminal/v1/{terminalSerial}/${mode}/${type}`,
        ]) {
          expect(document.paths[path]?.post?.requestBody?.content['application/json'].schema).toEqual({
            $ref: `#/components/schemas/${schema}`,
          });
        }
      }
    }
    expect(document.paths['/authorization'].post).toBeDefined();
  });

  it('has no async refund route', async () => {
    const response = await stack.client().post('/terminal/v1/async/refund', newBody());
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'NF-000' });
  });

  it('POST /authorization is a sync pre-authorization in Local form', async () => {
    const client = stack.client();
    const body = newBody({ amount: amountOf(12310) });
    const response = await client.post<Json>('/authorization', body);
    expect(response.status).toBe(200);
    expectAuthorizationResponse(response.body, 'PRE_AUTHORIZATION', 12310);
    const capture = await operate(
      client,
      'cloud',
      'sync',
      'capture',
      newBody({
        transaction_reference: response.body.rawResponse.transaction_reference,
      }),
    );
    expect(capture.response.status).toBe(200);
    expectAuthorizationResponse(capture.response.body, 'CAPTURE', 12310);
    const search = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      client_transaction_id: body.client_transaction_id,
    });
    expect(search.body.items[0]).toMatchObject({
      terminal_serial: 'SIM0000001',
      operation_type: 'authorization',
    });
  });

  it('a follow-up passes CARD_PRESENTED with the original reading type, attempt 1, and names the reference', async () => {
    const client = stack.client();
    const charge = await operate(client, 'cloud', 'sync', 'charge', newBody({ amount: amountOf(5000) }));
    const reference = charge.reference as string;
    const hook = `/follow-up/${reference}`;
    const tip = newBody({
      transaction_reference: reference,
      tip: 250,
      events_webhook_url: receiver.url(hook),
    });
    await operate(client, 'cloud', 'async', 'pos_tip', tip);
    await receiver.waitFor((all) => all.filter((r) => r.path === hook).length >= 3);
    const events = receiver.bodies<Json>(hook);
    expect(events.map((e) => e.status)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    for (const event of events) {
      expect(event.reading_type).toBe('CHIP');
      expect(event.interaction_attempt).toBe(1);
      expect(event.operation).toMatchObject({
        type: 'pos_tip',
        transactionReference: reference,
        amount: { iva: 8, subtotalIva: 42, subtotalIva0: 0, tip: 2.5 },
      });
    }
  });

  it('a sync operation records its events and delivers no webhook, even given a URL', async () => {
    const client = stack.client();
    const quiet = newBody({ amount: amountOf(7000), events_webhook_url: receiver.url('/sync-quiet') });
    const sync = await operate(client, 'cloud', 'sync', 'charge', quiet);
    expect(sync.response.status).toBe(200);
    // An async charge after it on the same terminal: its events travel the same ordered uplink.
    const loud = newBody({ amount: amountOf(7000), events_webhook_url: receiver.url('/async-loud') });
    await operate(client, 'cloud', 'async', 'charge', loud);
    await receiver.waitFor((all) =>
      all.some((r) => r.path === '/async-loud' && (r.body as Json).status === 'APPROVAL'),
    );
    expect(receiver.received.filter((r) => r.path === '/sync-quiet')).toEqual([]);
    const search = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      client_transaction_id: quiet.client_transaction_id,
    });
    expect(search.body.items[0].events.map((e: Json) => e.status)).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
  });

  describe('idempotency by client_transaction_id', () => {
    it('answers a repeated sync request with the first answer and charges once', async () => {
      const client = stack.client();
      const body = newBody({ amount: amountOf(4100) });
      const first = await operate(client, 'cloud', 'sync', 'charge', body);
      const again = await client.post<Json>(operationPath('cloud', 'sync', 'charge'), body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.response.body);
      const local = await client.post<Json>('/terminal/v1/SIM0000002/sync/transaction_search_local', {
        client_transaction_id: body.client_transaction_id,
      });
      expect(local.body.items).toHaveLength(1);
    });

    it.each(forms)('%s form: two identical sync requests at once get one answer', async (form) => {
      const client = stack.client();
      await ensureFree(form);
      const body = newBody({ amount: amountOf(4200) });
      const [a, b] = await Promise.all([
        client.post<Json>(operationPath(form, 'sync', 'charge'), body),
        client.post<Json>(operationPath(form, 'sync', 'charge'), body),
      ]);
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      const online = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
        client_transaction_id: body.client_transaction_id,
      });
      expect(online.body.items).toHaveLength(1);
    });

    it.each(forms)('%s form: two identical async requests at once get one acknowledgement', async (form) => {
      const client = stack.client();
      await ensureFree(form);
      const body = newBody({ amount: amountOf(4300) });
      const [a, b] = await Promise.all([
        client.post<Json>(operationPath(form, 'async', 'charge'), body),
        client.post<Json>(operationPath(form, 'async', 'charge'), body),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.event_id).toBe(a.body.event_id);
      await operate(client, form, 'sync', 'charge', newBody({ amount: amountOf(100) }));
    });

    it('refuses the same id with another body, or on another route, with TRX-001', async () => {
      const client = stack.client();
      const body = newBody({ amount: amountOf(4400) });
      await operate(client, 'cloud', 'sync', 'charge', body);
      for (const [path, changed] of [
        [operationPath('cloud', 'sync', 'charge'), { ...body, amount: amountOf(4401) }],
        [operationPath('cloud', 'async', 'charge'), body],
        [operationPath('local', 'sync', 'charge'), body],
      ] as const) {
        const response = await client.post<Json>(path, changed);
        expect(response.status).toBe(409);
        expect(response.body).toMatchObject({ type: 'TRANSACTION', code: 'TRX-001' });
      }
    });

    /** Waits until the form's terminal takes a request, so that concurrent twins meet a free one. */
    async function ensureFree(form: Form): Promise<void> {
      await operate(stack.client(), form, 'sync', 'charge', newBody({ amount: amountOf(100) }));
    }
  });
});
