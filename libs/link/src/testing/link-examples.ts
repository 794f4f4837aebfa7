import type { LinkEvent, OperationOrder } from '../index';

/** A valid operation order and event, for the link's own specs (the apps' specs use their real builders). */
export function exampleOrder(): OperationOrder {
  return {
    type: 'charge',
    mode: 'sync',
    form: 'cloud',
    merchantId: 'demo-merchant',
    clientTransactionId: 'c0ffee00-0000-4000-8000-000000000001',
    amount: {
      iva: 1600,
      subtotalIva: 10000,
      subtotalIva0: 0,
      extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
    },
    metadata: { till: '3' },
    eventsWebhookUrl: '',
    clockOffsetMs: 0,
  };
}

export function exampleLinkEvent(eventId = 'e0000000-0000-4000-8000-000000000001'): LinkEvent {
  return {
    event: {
      event_id: eventId,
      previous_status: '',
      occurred_at: '2026-11-26T06:00:00.000Z',
      status: 'TERMINAL_ACKNOWLEDGED',
      merchant_id: 'demo-merchant',
      client_transaction_id: 'c0ffee00-0000-4000-8000-000000000001',
      terminal: { serialNumber: 'SIM0000001', model: 'SIM-A920', wifiMac: '02:00:00:00:00:01', room: 'lab' },
      operation: {
        type: 'charge',
        amount: {
          iva: 16,
          subtotalIva: 100,
          subtotalIva0: 0,
          extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
        },
        clientTransactionId: 'c0ffee00-0000-4000-8000-000000000001',
        eventsWebHook: '',
        metadata: {},
      },
    },
    order: exampleOrder(),
  };
}
