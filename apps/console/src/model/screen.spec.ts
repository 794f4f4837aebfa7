import { screenOf } from './screen';
import type { TerminalRecord, TransactionEvent } from './types';

const terminal: TerminalRecord = {
  serialNumber: 'SIM0000002',
  model: 'SIM-A920',
  room: 'front-desk',
  pace: 'instant',
  printer: 'ok',
  cardholder: 'manual',
  cardholderManual: null,
  link: 'up',
};

function event(status: TransactionEvent['status'], extra: Partial<TransactionEvent> = {}): TransactionEvent {
  return {
    event_id: status,
    previous_status: '',
    occurred_at: '2026-11-23T12:00:00.000Z',
    status,
    client_transaction_id: 'c',
    terminal: { serialNumber: 'SIM0000002' },
    operation: {
      type: 'charge',
      amount: { iva: 16, subtotalIva: 100.51, subtotalIva0: 0 },
      eventsWebHook: '',
    },
    ...extra,
  };
}

describe('terminal screen', () => {
  it('follows the lifecycle: waiting, reading with its type, authorizing, the outcome with its code', () => {
    expect(screenOf(terminal, undefined)).toMatchObject({ tone: 'idle', title: 'Ready' });
    expect(screenOf(terminal, event('TERMINAL_ACKNOWLEDGED'))).toMatchObject({
      tone: 'waiting',
      title: 'Present card',
      detail: 'waiting for a card · charge $116.51',
    });
    expect(screenOf(terminal, event('CARD_PRESENTED', { reading_type: 'CONTACTLESS' })).detail).toContain(
      'card tapped',
    );
    expect(screenOf(terminal, event('APPROVAL_REQUESTED')).title).toBe('Authorizing…');
    expect(screenOf(terminal, event('APPROVAL')).title).toBe('Approved');
    const declined = event('DECLINED', {
      failure_reason: { type: 'ACQUIRER', code: '51', message: 'insufficient funds' },
    });
    expect(screenOf(terminal, declined)).toMatchObject({ tone: 'refused', title: 'Declined 51' });
    const rejected = event('TERMINAL_REJECTED', {
      failure_reason: { type: 'TERMINAL', code: 'TER-101', message: 'nobody presented a card in time' },
    });
    expect(screenOf(terminal, rejected).title).toBe('Rejected TER-101');
    expect(screenOf(terminal, event('TERMINAL_CANCELED')).title).toBe('Canceled');
  });

  it('shows offline over anything else', () => {
    expect(screenOf({ ...terminal, link: 'offline' }, event('APPROVAL'))).toMatchObject({
      tone: 'offline',
      title: 'Offline',
    });
  });
});
