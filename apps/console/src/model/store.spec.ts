import { CONFORMANCE_ROOM, INITIAL_STATE, recentTransactions, reduce, shownFleet } from './store';
import type { PrintJob, SearchItem, TerminalRecord, TransactionEvent } from './types';

function job(status: PrintJob['status'], printJobId = 'job-1'): PrintJob {
  return {
    printJobId,
    status,
    terminalSerial: 'SIM0000002',
    externalReference: 'console-1',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    ...(status === 'COMPLETED' ? { printedText: 'APPROVED' } : {}),
  };
}

describe('console store: print jobs', () => {
  it('keeps a printed job when the answer to its POST arrives after the live stream told it printed', () => {
    const printed = reduce(INITIAL_STATE, { type: 'print', job: job('COMPLETED') });
    const late = reduce(printed, { type: 'print', job: job('PENDING') });
    expect(late.printJobs).toEqual([job('COMPLETED')]);
  });

  it('moves a job forward and shows the newest job first', () => {
    let state = reduce(INITIAL_STATE, { type: 'print', job: job('PENDING') });
    state = reduce(state, { type: 'print', job: job('PENDING', 'job-2') });
    state = reduce(state, { type: 'print', job: job('IN_PROGRESS') });
    state = reduce(state, { type: 'print', job: job('FAILED') });
    expect(state.printJobs.map((j) => [j.printJobId, j.status])).toEqual([
      ['job-1', 'FAILED'],
      ['job-2', 'PENDING'],
    ]);
  });
});

function item(statuses: SearchItem['status'][], reference: string | null): SearchItem {
  return {
    client_transaction_id: 'tx-1',
    transaction_reference: reference,
    operation_type: 'charge',
    status: statuses[statuses.length - 1],
    business_state: reference === null ? null : 'SETTLED',
    terminal_serial: 'SIM0000001',
    amount: { total: 1000, tip: 0 },
    card: null,
    created_at: '2026-11-24T10:00:00.000Z',
    events: statuses.map((status, i) => ({
      event_id: `e${i}`,
      status: status ?? 'TERMINAL_ACKNOWLEDGED',
      previous_status: '',
      occurred_at: `2026-11-24T10:00:0${i}.000Z`,
    })),
  };
}

describe('console store: search answers', () => {
  const inProgress = item(['TERMINAL_ACKNOWLEDGED'], null);
  const approved = item(
    ['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'],
    'ref-1',
  );

  it('keeps the item of a later answer when an answer read before it arrives last', () => {
    const fresh = reduce(INITIAL_STATE, { type: 'found', items: [approved] });
    const late = reduce(fresh, { type: 'found', items: [inProgress] });
    expect(late.transactions['tx-1'].item).toEqual(approved);
  });

  it('takes an answer that knows as many events or more', () => {
    let state = reduce(INITIAL_STATE, { type: 'found', items: [inProgress] });
    state = reduce(state, { type: 'found', items: [approved] });
    expect(state.transactions['tx-1'].item).toEqual(approved);
    const voided = { ...approved, business_state: 'VOIDED' };
    state = reduce(state, { type: 'found', items: [voided] });
    expect(state.transactions['tx-1'].item?.business_state).toBe('VOIDED');
  });
});

describe('console store: a terminal back online', () => {
  const terminal = (link: TerminalRecord['link']): TerminalRecord => ({
    serialNumber: 'SIM0000001',
    model: 'SIM-A920',
    room: 'front-desk',
    pace: 'instant',
    printer: 'ok',
    cardholder: 'auto',
    cardholderManual: null,
    link,
  });
  const canceled = {
    event_id: 'e1',
    previous_status: 'CARD_PRESENTED',
    occurred_at: '2026-11-26T12:00:00.000Z',
    status: 'TERMINAL_CANCELED',
    client_transaction_id: 'c',
    terminal: { serialNumber: 'SIM0000001' },
    operation: {
      type: 'charge',
      amount: { iva: 16, subtotalIva: 100.94, subtotalIva0: 0 },
      eventsWebHook: '',
    },
  } satisfies TransactionEvent;

  it('forgets the outcome it showed before going offline, by a change of its own or one read from the fleet', () => {
    let state = reduce(INITIAL_STATE, { type: 'fleet', fleet: [terminal('up')] });
    state = reduce(state, { type: 'event', serial: 'SIM0000001', event: canceled });
    state = reduce(state, { type: 'terminal', terminal: terminal('offline') });
    expect(state.lastEvent.SIM0000001).toBe(canceled);
    expect(
      reduce(state, { type: 'terminal', terminal: terminal('up') }).lastEvent.SIM0000001,
    ).toBeUndefined();
    expect(reduce(state, { type: 'fleet', fleet: [terminal('down')] }).lastEvent.SIM0000001).toBeUndefined();
  });

  it('keeps the outcome while the terminal stays linked', () => {
    let state = reduce(INITIAL_STATE, { type: 'fleet', fleet: [terminal('up')] });
    state = reduce(state, { type: 'event', serial: 'SIM0000001', event: canceled });
    expect(reduce(state, { type: 'fleet', fleet: [terminal('up')] }).lastEvent.SIM0000001).toBe(canceled);
  });
});

describe("console store: the conformance run's terminal", () => {
  const terminal = (serialNumber: string, room: string): TerminalRecord => ({
    serialNumber,
    model: 'SIM-A920',
    room,
    pace: 'instant',
    printer: 'ok',
    cardholder: 'auto',
    cardholderManual: null,
    link: 'up',
  });
  const approved = (serial: string, id: string): TransactionEvent => ({
    event_id: `event-${id}`,
    previous_status: 'APPROVAL_REQUESTED',
    occurred_at: '2026-11-29T12:00:00.000Z',
    status: 'APPROVAL',
    client_transaction_id: id,
    terminal: { serialNumber: serial },
    operation: {
      type: 'charge',
      amount: { iva: 16, subtotalIva: 100, subtotalIva0: 0 },
      eventsWebHook: '',
    },
  });

  it('is neither on the wall nor offered, and its charges are not in the list', () => {
    let state = reduce(INITIAL_STATE, {
      type: 'fleet',
      fleet: [terminal('SIM0000001', 'front-desk'), terminal('SIM0000009', CONFORMANCE_ROOM)],
    });
    state = reduce(state, { type: 'event', serial: 'SIM0000001', event: approved('SIM0000001', 'demo') });
    state = reduce(state, { type: 'event', serial: 'SIM0000009', event: approved('SIM0000009', 'run') });
    expect(shownFleet(state).map((t) => t.serialNumber)).toEqual(['SIM0000001']);
    expect(recentTransactions(state).map((view) => view.clientTransactionId)).toEqual(['demo']);
  });
});
