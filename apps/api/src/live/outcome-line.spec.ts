import type { TransactionEvent } from '@tps/contracts';
import { outcomeLine } from './outcome-line';

function event(overrides: Partial<TransactionEvent>): TransactionEvent {
  return {
    event_id: 'e',
    previous_status: 'APPROVAL_REQUESTED',
    occurred_at: '2026-11-22T08:00:02.500Z',
    status: 'APPROVAL',
    merchant_id: 'demo-merchant',
    client_transaction_id: 'c',
    terminal: { serialNumber: 'SIM0000002', model: 'm', wifiMac: 'w', room: 'r' },
    operation: {
      type: 'charge',
      amount: {
        iva: 16,
        subtotalIva: 100,
        subtotalIva0: 0,
        extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
      },
      clientTransactionId: 'c',
      eventsWebHook: '',
      metadata: {},
    },
    ...overrides,
  };
}

describe('payment outcome line', () => {
  it('names terminal, operation, amount in pesos, outcome and milliseconds', () => {
    expect(outcomeLine(event({}), 2503)).toBe('SIM0000002 charge 116.00 APPROVAL 2503 ms');
  });

  it('adds the code of a decline or rejection, and "?" when the start is unknown', () => {
    const declined = event({
      status: 'DECLINED',
      failure_reason: { type: 'ACQUIRER', code: '51', message: 'insufficient funds' },
    });
    expect(outcomeLine(declined, undefined)).toBe('SIM0000002 charge 116.00 DECLINED 51 ? ms');
  });
});
