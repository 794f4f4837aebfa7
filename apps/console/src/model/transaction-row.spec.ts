import type { TransactionView } from './store';
import { rowFacts } from './transaction-row';
import type { SearchItem, TransactionEvent } from './types';

const event = {
  event_id: 'e1',
  previous_status: '',
  occurred_at: '2026-11-26T18:30:05.123Z',
  status: 'TERMINAL_ACKNOWLEDGED',
  client_transaction_id: 'c',
  terminal: { serialNumber: 'SIM0000001' },
  operation: { type: 'charge', amount: { iva: 16, subtotalIva: 100.5, subtotalIva0: 0 }, eventsWebHook: '' },
} satisfies TransactionEvent;

const view: TransactionView = {
  clientTransactionId: 'c',
  serial: 'SIM0000001',
  operation: 'charge',
  status: 'TERMINAL_ACKNOWLEDGED',
  events: [event],
  touched: 0,
};

describe('a row of the transaction list', () => {
  it('shows the total in pesos and the time of day in Mexico City from the first event', () => {
    expect(rowFacts(view)).toEqual({
      amount: '$116.50',
      at: { iso: '2026-11-26T18:30:05.123Z', time: '12:30:05' },
    });
  });

  it("prefers search's record: its total in centavos and its created_at", () => {
    const item = {
      amount: { total: 11600, tip: 0 },
      created_at: '2026-11-26T18:30:05.000Z',
    } as SearchItem;
    expect(rowFacts({ ...view, item })).toEqual({
      amount: '$116.00',
      at: { iso: '2026-11-26T18:30:05.000Z', time: '12:30:05' },
    });
  });

  it('shows neither before anything told them', () => {
    expect(rowFacts({ ...view, events: [] })).toEqual({ amount: null, at: null });
  });
});
