import { randomUUID } from 'node:crypto';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import {
  ContractError,
  NotHandedOverError,
  RateLimitedError,
  StorageUnavailableError,
  type LifecycleStatus,
} from '@tps/domain';
import type { LinkEvent, OperationOrder, TerminalRequest, TransactionOutcome } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { DailyTransactionQuota } from './daily-transaction-quota';
import { FollowUpPlanner } from './follow-up-planner';
import type { Timer } from './operation-ports';
import type { OperationRequest } from './operation-request';
import { OperationUseCase } from './operation-use-case';
import { InMemoryOperationStore } from './testing/in-memory-operation-store';

const REPLY_TIMEOUT_MS = 90_000;
const MERCHANT = {
  merchantId: 'demo-merchant',
  boundTerminalSerial: 'SIM1',
  clockOffsetSeconds: 0,
} as MerchantEntity;
const TERMINAL = { serialNumber: 'SIM1', merchantId: 'demo-merchant' } as TerminalEntity;
const AMOUNT = {
  iva: 1600,
  subtotalIva: 10000,
  subtotalIva0: 0,
  extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
};

/** Time that moves only when the use case sleeps or the test says so. */
class FakeTimer implements Timer {
  at = Date.UTC(2026, 10, 23, 15, 0, 0);
  now(): number {
    return this.at;
  }
  async sleep(ms: number): Promise<void> {
    this.at += ms;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function event(
  order: OperationOrder,
  previous: LifecycleStatus | '',
  status: LifecycleStatus,
): TransactionEvent {
  return {
    event_id: randomUUID(),
    previous_status: previous,
    occurred_at: new Date().toISOString(),
    status,
    merchant_id: order.merchantId,
    client_transaction_id: order.clientTransactionId,
  } as TransactionEvent;
}

function approval(): TransactionOutcome {
  const response = {
    approved: true,
    responseCode: '00',
    rawResponse: { transaction_reference: randomUUID(), card_type: 'CREDIT', franchise: 'VISA' },
    cardData: { entryMode: 'CHIP', pan: '************4242', bin: '424242' },
  };
  return { kind: 'acquirer', response: response as unknown as AuthorizationResponse };
}

/** A terminal's whole run for an order: acknowledged, card, asked, approved. */
function approvedRun(order: OperationOrder): LinkEvent[] {
  const statuses: LifecycleStatus[] = [
    'TERMINAL_ACKNOWLEDGED',
    'CARD_PRESENTED',
    'APPROVAL_REQUESTED',
    'APPROVAL',
  ];
  return statuses.map((status, i) => {
    const link: LinkEvent = { event: event(order, i === 0 ? '' : statuses[i - 1], status) };
    if (status === 'APPROVAL') link.outcome = approval();
    return link;
  });
}

/** A terminal scripted by the test; it records every request it was sent. */
class FakeTerminal {
  readonly sent: TerminalRequest[] = [];
  /** The event ids of each `stored` notice, with what the store held when it was sent. */
  readonly notices: Array<{ eventIds: string[]; storedBefore: boolean }> = [];
  /** Its own store, as the `events` request reads it. */
  readonly ran = new Map<string, LinkEvent[]>();
  answer: (order: OperationOrder) => Promise<LinkEvent[]> = async (order) => {
    const run = order.mode === 'sync' ? approvedRun(order) : approvedRun(order).slice(0, 1);
    this.ran.set(order.clientTransactionId, run);
    return run;
  };

  async send<T>(request: TerminalRequest): Promise<T> {
    this.sent.push(request);
    await new Promise((resolve) => setImmediate(resolve));
    if (request.type === 'operation') return { events: await this.answer(request.order) } as T;
    if (request.type === 'events') return (this.ran.get(request.clientTransactionId) ?? []) as T;
    throw new Error(`unexpected ${request.type}`);
  }

  operations(): number {
    return this.sent.filter((r) => r.type === 'operation').length;
  }
}

/** The stored transactions the daily quota counts, as the repository does: by merchant-clock date. */
function countsOf(store: InMemoryOperationStore) {
  return {
    countCreatedBetween: async (merchantId: string, fromMs: number, toMs: number) =>
      [...store.records.values()].filter(
        (t) => t.merchantId === merchantId && t.createdAtMs >= fromMs && t.createdAtMs < toMs,
      ).length,
  };
}

function setup(transactionsPerDay?: number) {
  const store = new InMemoryOperationStore();
  const terminal = new FakeTerminal();
  const timer = new FakeTimer();
  const clock = { now: () => new Date(timer.now()), offsetMs: () => 0 };
  const useCase = new OperationUseCase({
    quota: new DailyTransactionQuota(transactionsPerDay, countsOf(store), clock, () => timer.now()),
    store,
    terminals: {
      resolve: async () => TERMINAL,
      send: <T>(_t: TerminalEntity, _f: unknown, request: TerminalRequest) => terminal.send<T>(request),
      stored: (_t: TerminalEntity, events: LinkEvent[]) => {
        const eventIds = events.map((link) => link.event.event_id);
        const kept = [...store.events.values()].flat().map((e) => e.event_id);
        terminal.notices.push({ eventIds, storedBefore: eventIds.every((id) => kept.includes(id)) });
      },
    },
    clock,
    timer,
    planner: new FollowUpPlanner(clock),
    replyTimeoutMs: REPLY_TIMEOUT_MS,
  });
  return { store, terminal, timer, useCase };
}

function request(mode: 'sync' | 'async', fields: Partial<OperationRequest> = {}): OperationRequest {
  return {
    merchant: MERCHANT,
    form: 'cloud',
    serial: 'SIM1',
    type: 'charge',
    mode,
    clientTransactionId: randomUUID(),
    amount: AMOUNT,
    metadata: {},
    eventsWebhookUrl: '',
    fingerprint: 'fingerprint-1',
    ...fields,
  };
}

const codeOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof ContractError ? error.code : String(error)),
  );

describe('OperationUseCase', () => {
  it('answers a sync charge from the events it stored, and a repeat from the record without the terminal', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    const first = await useCase.runSync(charge);
    const record = await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId);
    expect(record?.status).toBe('APPROVAL');
    expect(first.approved).toBe(true);
    expect(await useCase.runSync(charge)).toEqual(first);
    expect(terminal.operations()).toBe(1);
  });

  it('refuses the same id with another body (TRX-001)', async () => {
    const { useCase } = setup();
    const charge = request('async');
    await useCase.startAsync(charge);
    expect(await codeOf(useCase.startAsync({ ...charge, fingerprint: 'another body' }))).toBe('TRX-001');
  });

  it('identical requests at once reach the terminal once and all get the stored acknowledgement', async () => {
    const { terminal, useCase } = setup();
    const charge = request('async');
    const answers = await Promise.all([1, 2, 3, 4].map(() => useCase.startAsync(charge)));
    expect(new Set(answers.map((a) => a.event_id)).size).toBe(1);
    expect(terminal.operations()).toBe(1);
  });

  it('a terminal that never took it (TER-001): nothing is kept, and the same id runs again', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    const answer = terminal.answer;
    terminal.answer = async () => {
      throw new ContractError('TER-001', 'offline');
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('TER-001');
    expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).toBeNull();
    terminal.answer = answer;
    expect((await useCase.runSync(charge)).approved).toBe(true);
  });

  it('a link lost after sending is 504 TER-002; the record stays and the terminal events complete it', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    terminal.answer = async (order) => {
      terminal.ran.set(order.clientTransactionId, approvedRun(order));
      throw new ContractError('TER-002', 'link lost');
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('TER-002');
    const kept = await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId);
    expect(kept?.status).toBeNull();
    // The uplink brings the run later.
    await store.storeEvents(TERMINAL, terminal.ran.get(charge.clientTransactionId) ?? []);
    expect((await useCase.runSync(charge)).approved).toBe(true);
    expect(terminal.operations()).toBe(1);
  });

  it('a storage failure while the order is with the replica that holds the link is 504 TER-002; the record stays', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    // Handed over (stored for the holder, which ran it), then the wait for its reply failed.
    terminal.answer = async (order) => {
      terminal.ran.set(order.clientTransactionId, approvedRun(order));
      throw new StorageUnavailableError(new Error('timeout exceeded when trying to connect'));
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('TER-002');
    expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).not.toBeNull();
    await store.storeEvents(TERMINAL, terminal.ran.get(charge.clientTransactionId) ?? []);
    expect((await useCase.runSync(charge)).approved).toBe(true);
    expect(terminal.operations()).toBe(1);
  });

  it('an order handed to no replica just after the store was away is 503 INT-002, and nothing is kept', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    const answer = terminal.answer;
    terminal.answer = async () => {
      throw new NotHandedOverError(new Error('no live holder yet'));
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('INT-002');
    expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).toBeNull();
    terminal.answer = answer;
    expect((await useCase.runSync(charge)).approved).toBe(true);
  });

  it('an unexpected error while handing the order over keeps the record too (504 TER-002)', async () => {
    const { store, terminal, useCase } = setup();
    const charge = request('sync');
    terminal.answer = async () => {
      throw new Error('socket hang up');
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('TER-002');
    expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).not.toBeNull();
  });

  it('a repeat past the reply timeout asks the terminal: its events answer, or it never took it and runs now', async () => {
    const { terminal, timer, useCase } = setup();
    const taken = request('sync');
    const lost = request('sync');
    terminal.answer = async (order) => {
      if (order.clientTransactionId === taken.clientTransactionId) {
        terminal.ran.set(order.clientTransactionId, approvedRun(order));
      }
      throw new ContractError('TER-002', 'no reply in time');
    };
    expect(await codeOf(useCase.runSync(taken))).toBe('TER-002');
    expect(await codeOf(useCase.runSync(lost))).toBe('TER-002');
    timer.at += REPLY_TIMEOUT_MS;
    terminal.answer = async (order) => approvedRun(order);

    expect((await useCase.runSync(taken)).approved).toBe(true);
    expect(terminal.operations()).toBe(2);
    expect((await useCase.runSync(lost)).approved).toBe(true);
    expect(terminal.operations()).toBe(3);
  });

  it('a repeat of a request whose answer is still coming waits for it, bounded by the reply timeout', async () => {
    const { store, terminal, timer, useCase } = setup();
    const charge = request('sync');
    terminal.answer = async () => {
      throw new ContractError('TER-002', 'no reply in time');
    };
    await codeOf(useCase.runSync(charge));
    const before = timer.now();
    expect(await codeOf(useCase.runSync(charge))).toBe('TER-002');
    expect(timer.now() - before).toBeGreaterThanOrEqual(REPLY_TIMEOUT_MS);
    expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).not.toBeNull();
  });

  it("tells the terminal its reply's events once they are stored, so they need not come up its uplink", async () => {
    const { terminal, useCase } = setup();
    await useCase.runSync(request('sync'));
    await useCase.startAsync(request('async'));
    expect(terminal.notices.map((n) => n.eventIds.length)).toEqual([4, 1]);
    expect(terminal.notices.every((n) => n.storedBefore)).toBe(true);
  });

  it.each(['sync', 'async'] as const)(
    'a storage failure while storing what the terminal answered is 504 INT-003 (%s), never "not taken"; the record is kept',
    async (mode) => {
      const { store, terminal, timer, useCase } = setup();
      const charge = request(mode);
      const storeEvents = store.storeEvents.bind(store);
      store.storeEvents = async () => {
        throw new StorageUnavailableError(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
      };
      const run = () => (mode === 'sync' ? useCase.runSync(charge) : useCase.startAsync(charge));
      expect(await codeOf(run())).toBe('INT-003');
      expect(await store.findByClientId(MERCHANT.merchantId, charge.clientTransactionId)).not.toBeNull();
      // Nothing was stored: the terminal keeps the events for its uplink.
      expect(terminal.notices).toEqual([]);

      // Storage back: a retry with the same id answers the outcome; the terminal ran it once.
      store.storeEvents = storeEvents;
      timer.at += REPLY_TIMEOUT_MS;
      const answered = await run();
      expect(
        mode === 'sync'
          ? (answered as AuthorizationResponse).approved
          : (answered as TransactionEvent).status,
      ).toBe(mode === 'sync' ? true : 'TERMINAL_ACKNOWLEDGED');
      expect(terminal.operations()).toBe(1);
    },
  );

  it('while nothing can be written, a repeat of a recorded request is 504 INT-003 and only a new id is 503 INT-002 ("not taken")', async () => {
    const { store, useCase } = setup();
    const charge = request('sync');
    const full = new StorageUnavailableError(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
    store.storeEvents = async () => {
      throw full;
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('INT-003');

    store.failWrites = full;
    // The record stands and its terminal ran it: "nothing moved" would be false.
    expect(await codeOf(useCase.runSync(charge))).toBe('INT-003');
    expect(await codeOf(useCase.runSync({ ...charge, fingerprint: 'another body' }))).toBe('TRX-001');
    expect(await codeOf(useCase.runSync(request('sync')))).toBe('INT-002');
  });

  it('while nothing can be written nor read, any request is 504 INT-003: whether it was taken is unknown', async () => {
    const { store, useCase } = setup();
    const charge = request('sync');
    const gone = new StorageUnavailableError(
      Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }),
    );
    store.storeEvents = async () => {
      throw gone;
    };
    expect(await codeOf(useCase.runSync(charge))).toBe('INT-003');

    store.failWrites = gone;
    store.findByClientId = async () => {
      throw gone;
    };
    // The record stands and its terminal ran it, but no read can tell: never "not taken".
    expect(await codeOf(useCase.runSync(charge))).toBe('INT-003');
    expect(await codeOf(useCase.runSync(request('sync')))).toBe('INT-003');
  });

  it('an error other than storage while storing the events is thrown as it is', async () => {
    const { store, useCase } = setup();
    store.storeEvents = async () => {
      throw new ContractError('TER-002', 'does not follow');
    };
    expect(await codeOf(useCase.runSync(request('sync')))).toBe('TER-002');
  });

  it('a second refund while the first has no outcome is TRX-007, checked in the write that records it', async () => {
    const { store, terminal, useCase } = setup();
    const charged = request('sync');
    const charge = await useCase.runSync(charged);
    const reference = charge.rawResponse.transaction_reference;
    // The business state an approved charge has (the repository's job, tested in the e2e suites).
    Object.assign(store.records.get(`${MERCHANT.merchantId}:${charged.clientTransactionId}`) ?? {}, {
      businessState: 'SETTLED',
      businessAmount: AMOUNT,
      businessTip: 0,
      refundedTotal: 0,
      cardType: 'CREDIT',
      approvedAtMs: Date.now(),
      validFromMs: Date.now(),
    });
    const first = request('sync', {
      type: 'refund',
      transactionReference: reference,
      amount: { ...AMOUNT, iva: 0, subtotalIva: 100 },
    });
    // The first refund is recorded, then handed to a terminal that never answers.
    let handed: () => void = () => undefined;
    const handedOver = new Promise<void>((resolve) => (handed = resolve));
    terminal.answer = async () => {
      handed();
      return new Promise<LinkEvent[]>(() => undefined);
    };
    void useCase.runSync(first).catch(() => undefined);
    await handedOver;
    expect(store.records.get(`${MERCHANT.merchantId}:${first.clientTransactionId}`)?.outcome).toBeNull();
    const second = { ...first, clientTransactionId: randomUUID() };
    expect(await codeOf(useCase.runSync(second))).toBe('TRX-007');
  });

  it('over the quota of transactions per day, refuses a new request before recording it and answers a repeat', async () => {
    const { store, terminal, timer, useCase } = setup(2);
    const first = request('sync');
    const answered = await useCase.runSync(first);
    await useCase.runSync(request('sync'));
    const third = request('sync');
    const refused = await useCase.runSync(third).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    // 15:00 UTC is 09:00 in Mexico City: the day ends in 15 hours.
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(15 * 3600);
    expect(await store.findByClientId(MERCHANT.merchantId, third.clientTransactionId)).toBeNull();
    expect(terminal.operations()).toBe(2);
    // A repeat adds no transaction: answered from its record, as ever.
    expect(await useCase.runSync(first)).toEqual(answered);
    // An abort stops what runs: never refused by the quota.
    expect(await codeOf(useCase.runSync(request('sync', { type: 'abort', amount: undefined })))).not.toBe(
      'RATE-001',
    );
    timer.at += 15 * 3600 * 1000;
    expect((await useCase.runSync(third)).approved).toBe(true);
  });
});
