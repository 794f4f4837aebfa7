import type { TSchema } from '@sinclair/typebox';
import {
  EVENTS_RECEIPT,
  FLEET_CHANGE,
  HOST_REPLY,
  PRINT_REPORT_RECEIPT,
  SERVICE_CONTROL_SIDE,
  SERVICE_UPLINK_SIDE,
  SIMULATOR_CONTROL_SIDE,
  TERMINAL_UPLINK_SIDE,
  parseFrame,
  terminalReply,
  type MessageCheck,
  type PrintOrder,
  type TerminalProfile,
  type TerminalRequest,
} from './index';
import { exampleLinkEvent, exampleOrder } from './testing/link-examples';

const profile: TerminalProfile = {
  serialNumber: 'SIM0000001',
  merchantId: 'demo-merchant',
  model: 'SIM-A920',
  wifiMac: '02:00:00:00:00:01',
  room: 'lab',
  pace: 'instant',
  printer: 'ok',
  offline: false,
  cardholder: 'auto',
};

const printOrder: PrintOrder = {
  printJobId: 'p1',
  merchantId: 'demo-merchant',
  commands: [
    { type: 'text', value: 'hello', align: 'center', bold: true },
    { type: 'qr', value: 'x' },
    { type: 'cut' },
  ],
  webhookUrl: '',
  externalReference: '',
  clockOffsetMs: 0,
};

const report = {
  printJobId: 'p1',
  status: 'COMPLETED',
  updatedAt: '2026-11-26T06:00:00.000Z',
  printedText: 'hello',
};

const authorization = {
  approved: true,
  responseCode: '00',
  authCode: '123456',
  issuerAuthenticationData: '',
  issuerScript1: '',
  issuerScript2: '',
  message: 'APPROVED',
  rawResponse: {
    authorized_amount: 116,
    card_type: 'CREDIT',
    cvm_type: 'PIN',
    franchise: 'VISA',
    service_response: { code: '00', message: 'ok' },
    transaction_reference: 'ref-1',
    transaction_status: 'APPROVED',
    transaction_type: 'SALE',
    ticket_number: '1',
    F11: '000001',
    message_fields: { F38: '123456', F39: '00', F55: '' },
  },
  cardData: {
    pan: '411111******1111',
    cardHolderName: 'TEST',
    cardType: 'CREDIT',
    entryMode: 'CHIP',
    showReciptSignature: false,
    cvm: 'PIN',
    aid: 'A0000000031010',
    bin: '411111',
    isOnlinePinMandatory: false,
  },
  timestamp: 1795334400000,
};

const finalEvent = {
  ...exampleLinkEvent('e2'),
  order: undefined,
  outcome: { kind: 'acquirer', response: authorization },
};
delete finalEvent.order;

const terminalRequests: Array<[string, TerminalRequest]> = [
  ['order', { type: 'operation', order: exampleOrder() }],
  ['filters', { type: 'search', merchantId: 'demo-merchant', filters: { limit: 10, status: 'APPROVAL' } }],
  ['merchantId', { type: 'abort', merchantId: 'demo-merchant', target: 'c1' }],
  ['card', { type: 'card', card: { action: 'present', readingType: 'CHIP' } }],
  ['clientTransactionId', { type: 'events', merchantId: 'demo-merchant', clientTransactionId: 'c1' }],
  ['job', { type: 'print', job: printOrder }],
];

/** Each kind of message, a valid example of it, and a field of it the refusals below spoil. */
const KINDS: Array<{ name: string; check: MessageCheck<TSchema>; field: string; valid: unknown }> = [
  ...terminalRequests.map(([field, valid]) => ({
    name: `terminal request ${valid.type}`,
    check: TERMINAL_UPLINK_SIDE.requests,
    field,
    valid,
  })),
  ...terminalRequests.map(([, request]) => ({
    name: `control request terminal (${request.type})`,
    check: SIMULATOR_CONTROL_SIDE.requests,
    field: 'serial',
    valid: { type: 'terminal', serial: 'SIM0000001', request },
  })),
  {
    name: 'control request host',
    check: SIMULATOR_CONTROL_SIDE.requests,
    field: 'terminal',
    valid: { type: 'host', terminal: profile },
  },
  {
    name: 'control request reset',
    check: SIMULATOR_CONTROL_SIDE.requests,
    field: 'terminals',
    valid: { type: 'reset', terminals: [profile] },
  },
  {
    name: 'control request remove',
    check: SIMULATOR_CONTROL_SIDE.requests,
    field: 'serials',
    valid: { type: 'remove', serials: ['SIM0000001'] },
  },
  {
    name: 'control notice share',
    check: SIMULATOR_CONTROL_SIDE.notices,
    field: 'epoch',
    valid: { type: 'share', share: 'fleet', instance: 'abc', epoch: 1 },
  },
  {
    name: 'control notice fleet',
    check: SIMULATOR_CONTROL_SIDE.notices,
    field: 'terminals',
    valid: { type: 'fleet', terminals: [profile] },
  },
  {
    name: 'uplink notice stored',
    check: TERMINAL_UPLINK_SIDE.notices,
    field: 'eventIds',
    valid: { type: 'stored', merchantId: 'demo-merchant', clientTransactionId: 'c1', eventIds: ['e1'] },
  },
  {
    name: 'uplink request events',
    check: SERVICE_UPLINK_SIDE.requests,
    field: 'links',
    valid: { type: 'events', links: [exampleLinkEvent('e1'), finalEvent] },
  },
  {
    name: 'uplink request print',
    check: SERVICE_UPLINK_SIDE.requests,
    field: 'report',
    valid: { type: 'print', report },
  },
  {
    name: 'operation reply',
    check: terminalReply(terminalRequests[0][1]),
    field: 'events',
    valid: { events: [exampleLinkEvent('e1'), finalEvent] },
  },
  {
    name: 'search reply',
    check: terminalReply(terminalRequests[1][1]),
    field: 'items',
    valid: {
      items: [
        {
          client_transaction_id: 'c1',
          transaction_reference: null,
          operation_type: 'charge',
          status: 'APPROVAL',
          business_state: null,
          terminal_serial: 'SIM0000001',
          amount: {
            iva: 16,
            subtotal_iva: 100,
            subtotal_iva0: 0,
            extra_taxes: { airport_tax: 0, iac: 0, ice: 0, travel_agency: 0 },
            tip: 0,
            total: 116,
          },
          card: { pan: '411111******1111', franchise: 'VISA', card_type: 'CREDIT', reading_type: 'CHIP' },
          created_at: '2026-11-26T06:00:00.000Z',
          events: [
            {
              event_id: 'e1',
              status: 'APPROVAL',
              previous_status: '',
              occurred_at: '2026-11-26T06:00:00.000Z',
            },
          ],
        },
      ],
      next_cursor: null,
    },
  },
  {
    name: 'abort reply',
    check: terminalReply(terminalRequests[2][1]),
    field: 'answer',
    valid: { answer: { client_transaction_id: 'c1', status: 'TERMINAL_CANCELED' }, events: [] },
  },
  {
    name: 'card reply',
    check: terminalReply(terminalRequests[3][1]),
    field: 'action',
    valid: { client_transaction_id: 'c1', action: 'present' },
  },
  { name: 'print reply', check: terminalReply(terminalRequests[5][1]), field: 'status', valid: report },
  { name: 'host reply', check: HOST_REPLY, field: 'hosted', valid: { hosted: 'SIM0000001' } },
  { name: 'fleet change reply', check: FLEET_CHANGE, field: 'serials', valid: { serials: ['SIM0000001'] } },
  { name: 'events receipt', check: EVENTS_RECEIPT, field: 'stored', valid: { stored: 2 } },
  {
    name: 'print report receipt',
    check: PRINT_REPORT_RECEIPT,
    field: 'acknowledged',
    valid: { acknowledged: 'p1' },
  },
];

function withField(valid: unknown, field: string, value: unknown): Record<string, unknown> {
  return { ...(valid as Record<string, unknown>), [field]: value };
}

function without(valid: unknown, field: string): Record<string, unknown> {
  const copy = { ...(valid as Record<string, unknown>) };
  delete copy[field];
  return copy;
}

describe('link message checks', () => {
  describe.each(KINDS)('$name', ({ check, field, valid }) => {
    const value = (valid as Record<string, unknown>)[field];

    it('accepts its valid shape', () => {
      expect(check.check(valid)).toEqual({ ok: true, value: valid });
    });

    it('refuses a field of the wrong type, naming it (PAR-002)', () => {
      const wrong = typeof value === 'string' ? 42 : 'not this';
      const result = check.check(withField(valid, field, wrong));
      expect(result).toMatchObject({ ok: false, refusal: { code: 'PAR-002', param: field } });
    });

    it('refuses a missing field, naming it (PAR-002)', () => {
      const result = check.check(without(valid, field));
      expect(result).toMatchObject({ ok: false, refusal: { code: 'PAR-002', param: field } });
    });

    it('refuses a field nested one level too deep', () => {
      const result = check.check(withField(valid, field, { [field]: value }));
      expect(result.ok).toBe(false);
      expect(result.ok || result.refusal.param.startsWith(field)).toBe(true);
    });

    it('refuses the whole message nested one level too deep', () => {
      expect(check.check({ body: valid }).ok).toBe(false);
    });

    it('takes a message with a field it does not know, without that field', () => {
      expect(check.check(withField(valid, 'extra', 1))).toEqual({ ok: true, value: valid });
    });

    it('still refuses a known field of the wrong type beside a field it does not know', () => {
      const wrong = typeof value === 'string' ? 42 : 'not this';
      const result = check.check(withField(withField(valid, 'extra', 1), field, wrong));
      expect(result).toMatchObject({ ok: false, refusal: { code: 'PAR-002', param: field } });
    });
  });

  it("drops a newer end's fields at every depth, within the variant the message names", () => {
    const link = exampleLinkEvent('e1');
    const newer = {
      type: 'events',
      added: true,
      links: [
        {
          ...link,
          hop: 2,
          event: { ...link.event, region: 'mx', terminal: { ...link.event.terminal, battery: 80 } },
        },
        { ...finalEvent, outcome: { ...finalEvent.outcome, response: { ...authorization, scheme: 'visa' } } },
      ],
    };
    expect(SERVICE_UPLINK_SIDE.requests.check(newer)).toEqual({
      ok: true,
      value: { type: 'events', links: [link, finalEvent] },
    });
    // What was received is left as it came.
    expect(newer.links[0].event).toHaveProperty('region', 'mx');
  });

  it('checks every known field of a message that has unknown ones too', () => {
    const request = {
      type: 'events',
      links: [
        {
          ...finalEvent,
          hop: 2,
          outcome: { kind: 'acquirer', response: { ...authorization, approved: 'yes' } },
        },
      ],
    };
    expect(SERVICE_UPLINK_SIDE.requests.check(request)).toMatchObject({
      ok: false,
      refusal: { code: 'PAR-002', param: 'links[0].outcome.response.approved' },
    });
  });

  it('takes a frame with a field it does not know', () => {
    expect(parseFrame(JSON.stringify({ f: 'res', id: 1, ok: true, result: 2, trace: 'x' }))).toEqual({
      ok: true,
      value: { f: 'res', id: 1, ok: true, result: 2 },
    });
  });

  it('follows a tagged union into the variant the message names', () => {
    const request = {
      type: 'events',
      links: [
        exampleLinkEvent('e1'),
        { ...finalEvent, outcome: { kind: 'acquirer', response: { ...authorization, approved: 'yes' } } },
      ],
    };
    const result = SERVICE_UPLINK_SIDE.requests.check(request);
    expect(result).toEqual({
      ok: false,
      refusal: {
        code: 'PAR-002',
        param: 'links[1].outcome.response.approved',
        message: 'uplink request: links[1].outcome.response.approved: expected boolean',
      },
    });
  });

  it('names the tag of a message of no known kind, with the kinds it may be', () => {
    const result = TERMINAL_UPLINK_SIDE.requests.check({ type: 'reboot' });
    expect(result).toMatchObject({
      ok: false,
      refusal: {
        code: 'PAR-002',
        param: 'type',
        message: expect.stringContaining('"reboot", expected one of "operation"'),
      },
    });
  });

  it('refuses whatever comes where an end takes nothing', () => {
    expect(SERVICE_CONTROL_SIDE.requests.check({ type: 'host', terminal: profile })).toEqual({
      ok: false,
      refusal: { code: 'PAR-002', param: '', message: 'control request: the message: this end takes none' },
    });
    expect(SERVICE_UPLINK_SIDE.notices.check({ type: 'stored' })).toMatchObject({ ok: false });
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, 'events', 42, []]) {
      expect(TERMINAL_UPLINK_SIDE.notices.check(body)).toMatchObject({
        ok: false,
        refusal: { code: 'PAR-002' },
      });
    }
  });

  it('takes a trace context on orders, events and print reports, and messages without one too', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    for (const order of [exampleOrder(), { ...exampleOrder(), traceparent }]) {
      expect(TERMINAL_UPLINK_SIDE.requests.check({ type: 'operation', order }).ok).toBe(true);
    }
    for (const job of [printOrder, { ...printOrder, traceparent }]) {
      expect(TERMINAL_UPLINK_SIDE.requests.check({ type: 'print', job }).ok).toBe(true);
    }
    for (const link of [exampleLinkEvent('e1'), { ...exampleLinkEvent('e1'), traceparent }]) {
      expect(SERVICE_UPLINK_SIDE.requests.check({ type: 'events', links: [link] }).ok).toBe(true);
    }
    for (const printed of [report, { ...report, traceparent }]) {
      expect(SERVICE_UPLINK_SIDE.requests.check({ type: 'print', report: printed }).ok).toBe(true);
    }
    expect(
      TERMINAL_UPLINK_SIDE.requests.check({
        type: 'operation',
        order: { ...exampleOrder(), traceparent: 7 },
      }),
    ).toMatchObject({ ok: false, refusal: { code: 'PAR-002', param: 'order.traceparent' } });
  });
});
