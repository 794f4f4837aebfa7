import type { TransactionEvent } from '@tps/contracts';
import { verifyWebhook } from '@tps/delivery';
import type { CaseName } from './conformance-cases';
import type { CaseReport } from './conformance-report';
import { runConformance } from './conformance-runner';
import type { ReadReport, ReceiverAnswer, RunClock, RunLimits } from './run-ports';

/** A clock that moves only when the test says so. */
class ManualClock implements RunClock {
  private now = 1_795_334_400_000;
  private timers: Array<{ at: number; resolve: () => void }> = [];

  nowMs(): number {
    return this.now;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      this.timers.push({ at: this.now + ms, resolve });
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  async advance(ms: number): Promise<void> {
    this.now += ms;
    const due = this.timers.filter((t) => t.at <= this.now);
    this.timers = this.timers.filter((t) => t.at > this.now);
    for (const timer of due) timer.resolve();
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const CLIENT_ID = '6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c';
const LIMITS: RunLimits = {
  runMs: 60_000,
  searchWindowMs: 30_000,
  answerTimeoutMs: 5000,
  fastAckMs: 2000,
  burstSpreadMs: 1000,
  reportWaitMs: 5000,
};
const STATUSES = ['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'] as const;

function eventsOfCharge(): TransactionEvent[] {
  return STATUSES.map((status, i) => ({
    event_id: `00000000-0000-4000-8000-00000000000${i}`,
    previous_status: i === 0 ? '' : STATUSES[i - 1],
    occurred_at: '2026-11-22T08:00:00.123Z',
    status,
    merchant_id: 'acct_1',
    client_transaction_id: CLIENT_ID,
    terminal: {
      serialNumber: 'SIM0000001',
      model: 'P2',
      wifiMac: '02:00:00:00:00:01',
      room: 'conformance-run',
    },
    operation: {
      type: 'charge',
      amount: { iva: 16, subtotal_iva: 100, subtotal_iva0: 0 } as never,
      clientTransactionId: CLIENT_ID,
      eventsWebHook: '',
      metadata: {},
    },
  }));
}

interface Sent {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * The receiver's report: `once`, each id sent counted once (it deduplicates); `each`, every
 * delivery counted (it does not); `never`, nothing processed; `none`, no report_url given.
 */
type Reporting = 'once' | 'each' | 'never' | 'none';

function reportOf(sent: Sent[], reporting: Reporting): ReadReport | undefined {
  if (reporting === 'none') return undefined;
  return (ids) => {
    const idOf = (s: Sent): unknown => s.body.event_id ?? s.body.printJobId;
    const times = (id: string): number => {
      const deliveries = sent.filter((s) => idOf(s) === id).length;
      if (reporting === 'never') return 0;
      return reporting === 'each' ? deliveries : Math.min(deliveries, 1);
    };
    return Promise.resolve({ counts: Object.fromEntries(ids.map((id) => [id, times(id)])) });
  };
}

function start(
  cases: CaseName[],
  answer: (sent: Sent, signal: AbortSignal) => Promise<ReceiverAnswer> | ReceiverAnswer,
  reporting: Reporting = 'once',
  stop?: AbortSignal,
): { clock: ManualClock; reports: CaseReport[]; sent: Sent[]; search: () => void; done: Promise<void> } {
  const clock = new ManualClock();
  const reports: CaseReport[] = [];
  const sent: Sent[] = [];
  let listener: ((id: string | undefined) => void) | undefined;
  const done = runConformance(
    { id: 'run-1', cases, secret: SECRET },
    {
      clock,
      ...(stop === undefined ? {} : { stop }),
      post: async (body, headers, _timeoutMs, signal) => {
        const one = { body: JSON.parse(body) as Record<string, unknown>, headers };
        sent.push(one);
        return answer(one, signal);
      },
      report: reportOf(sent, reporting),
      transactions: (kinds) => Promise.resolve(kinds.map(() => eventsOfCharge())),
      searches: (l) => {
        listener = l;
        return () => (listener = undefined);
      },
    },
    LIMITS,
    (report) => reports.push(report),
  );
  return { clock, reports, sent, search: () => listener?.(CLIENT_ID), done };
}

const OK: ReceiverAnswer = { status: 204, error: null, latencyMs: 1 };

describe('runConformance (contract §17)', () => {
  it('fails gap-reconcile only once the search window has passed on the run clock, with no search', async () => {
    const run = start(['gap-reconcile'], () => OK);
    await settle();
    expect(run.sent.map((s) => s.body.status)).toEqual(['CARD_PRESENTED', 'APPROVAL']);
    await run.clock.advance(LIMITS.searchWindowMs - 1);
    expect(run.reports).toEqual([]);
    await run.clock.advance(1);
    await run.done;
    expect(run.reports).toEqual([
      expect.objectContaining({
        name: 'gap-reconcile',
        passed: false,
        observed: expect.stringContaining(`no transaction search for ${CLIENT_ID} within 30 s`),
        hint: expect.stringContaining('transaction search'),
      }),
    ]);
  });

  it('passes gap-reconcile as soon as the receiver searches for the transaction, without waiting', async () => {
    const run = start(['gap-reconcile'], (sent) => {
      if (sent.body.status === 'APPROVAL') run.search();
      return OK;
    });
    await run.done;
    expect(run.reports[0]).toMatchObject({ name: 'gap-reconcile', passed: true });
  });

  it('does not count a search made before the gap was sent (the console reads each charge as it is made)', async () => {
    const clock = new ManualClock();
    const reports: CaseReport[] = [];
    let listener: ((id: string | undefined) => void) | undefined;
    const done = runConformance(
      { id: 'run-1', cases: ['gap-reconcile'], secret: SECRET },
      {
        clock,
        post: () => Promise.resolve(OK),
        transactions: async (kinds) => {
          listener?.(CLIENT_ID);
          await clock.advance(1000);
          return kinds.map(() => eventsOfCharge());
        },
        searches: (l) => {
          listener = l;
          return () => (listener = undefined);
        },
      },
      LIMITS,
      (report) => reports.push(report),
    );
    await settle();
    await clock.advance(LIMITS.searchWindowMs);
    await done;
    expect(reports[0]).toMatchObject({ name: 'gap-reconcile', passed: false });
  });

  it('sends out-of-order as APPROVAL before APPROVAL_REQUESTED', async () => {
    const run = start(['out-of-order'], (sent) => {
      if (sent.body.status === 'APPROVAL_REQUESTED') run.search();
      return OK;
    });
    await run.done;
    expect(run.sent.map((s) => s.body.status)).toEqual(['CARD_PRESENTED', 'APPROVAL', 'APPROVAL_REQUESTED']);
    expect(run.reports[0]).toMatchObject({ name: 'out-of-order', passed: true });
  });

  it('signs badly, not at all, or 10 minutes ago, as each signature case says', async () => {
    const run = start(['bad-signature', 'missing-signature', 'stale-timestamp'], () => ({
      status: 401,
      error: null,
      latencyMs: 1,
    }));
    await run.done;
    const [bad, missing, stale] = run.sent;
    const now = run.clock.nowMs() / 1000;
    const verifies = (s: Sent | undefined, tolerance: number): boolean =>
      verifyWebhook(SECRET, s?.headers ?? {}, JSON.stringify(s?.body), now, tolerance);
    expect(verifies(bad, 300)).toBe(false);
    expect(bad?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(missing?.headers).toEqual({});
    expect(verifies(stale, 300)).toBe(false);
    expect(verifies(stale, 601)).toBe(true);
    expect(run.reports.every((r) => r.passed)).toBe(true);
  });

  it('sends the same event twice for duplicate-event and an extra field for unknown-field', async () => {
    const run = start(['duplicate-event'], () => OK);
    await settle();
    await run.clock.advance(500);
    await run.done;
    expect(run.reports[0]).toMatchObject({ name: 'duplicate-event', passed: true });
    const ids = run.sent.map((s) => s.body.event_id);
    expect(ids.slice(-2)).toEqual([ids[ids.length - 1], ids[ids.length - 1]]);

    const extra = start(['unknown-field'], () => OK);
    await extra.done;
    expect(extra.sent[0]?.body).toHaveProperty('x_conformance_extra');
  });

  it('fails duplicate-event and print-duplicate when the report says a repeat was processed twice', async () => {
    const run = start(['duplicate-event', 'print-duplicate'], () => OK, 'each');
    await settle();
    await run.clock.advance(500);
    await run.done;
    expect(run.reports.map((r) => [r.name, r.passed])).toEqual([
      ['print-duplicate', false],
      ['duplicate-event', false],
    ]);
    expect(run.reports[1]?.observed).toContain('processed 2 time(s)');
  });

  it('reads the report until it shows the id processed, up to its bound, then fails with what it said', async () => {
    const run = start(['print-duplicate'], () => OK, 'never');
    await settle();
    // Read every 200 ms on the run clock: still waiting just before the bound.
    for (let waited = 0; waited < LIMITS.reportWaitMs - 200; waited += 200) await run.clock.advance(200);
    expect(run.reports).toEqual([]);
    for (let step = 0; step < 5 && run.reports.length === 0; step++) await run.clock.advance(500);
    await run.done;
    expect(run.reports[0]).toMatchObject({ name: 'print-duplicate', passed: false });
    expect(run.reports[0]?.observed).toContain('processed 0 time(s)');
  });

  it('skips the cases that need a report without one: not sent, never passed', async () => {
    const run = start(['duplicate-event', 'fast-ack', 'print-duplicate'], () => OK, 'none');
    await run.done;
    expect(run.reports.map((r) => [r.name, r.passed, r.skipped])).toEqual([
      ['duplicate-event', false, true],
      ['print-duplicate', false, true],
      ['fast-ack', true, undefined],
    ]);
    expect(run.reports[0]?.observed).toContain('no report_url');
    expect(run.sent.every((s) => s.body.printJobId === undefined)).toBe(true);
  });

  it('fails fast-ack when an answer is 2xx but slower than 2 s', async () => {
    const run = start(['fast-ack'], () => ({ status: 200, error: null, latencyMs: 2001 }));
    await run.done;
    expect(run.reports[0]).toMatchObject({ name: 'fast-ack', passed: false });
  });

  it('cuts whatever still waits when the run reaches its 60 s, and fails those cases', async () => {
    const run = start(
      ['fast-ack'],
      (_sent, signal) =>
        new Promise<ReceiverAnswer>((resolve) =>
          signal.addEventListener('abort', () => resolve({ status: null, error: 'cut', latencyMs: 0 })),
        ),
    );
    await settle();
    expect(run.reports).toEqual([]);
    await run.clock.advance(LIMITS.runMs);
    await run.done;
    expect(run.reports[0]).toMatchObject({ name: 'fast-ack', passed: false });
    expect(run.reports[0]?.observed).toContain('no answer (cut)');
  });

  it('cuts whatever still waits at once when stopped before its time (its account deleted)', async () => {
    const stop = new AbortController();
    const run = start(
      ['fast-ack', 'burst'],
      (_sent, signal) =>
        new Promise<ReceiverAnswer>((resolve) =>
          signal.addEventListener('abort', () => resolve({ status: null, error: 'cut', latencyMs: 0 })),
        ),
      'once',
      stop.signal,
    );
    await settle();
    expect(run.reports).toEqual([]);
    stop.abort();
    await run.done;
    expect(run.reports.map((r) => [r.name, r.passed])).toEqual([
      ['fast-ack', false],
      ['burst', false],
    ]);
    expect(run.reports[0]?.observed).toContain('no answer (cut)');
  });

  it('fails every case, saying why, when the transactions cannot be made', async () => {
    const reports: CaseReport[] = [];
    await runConformance(
      { id: 'run-1', cases: ['fast-ack', 'burst'], secret: SECRET },
      {
        clock: new ManualClock(),
        post: () => Promise.resolve(OK),
        transactions: () => Promise.reject(new Error('terminal SIM0000001 is offline')),
        searches: () => () => undefined,
      },
      LIMITS,
      (report) => reports.push(report),
    );
    expect(reports.map((r) => [r.name, r.passed, r.observed])).toEqual([
      ['fast-ack', false, 'the run could not make its transactions: terminal SIM0000001 is offline'],
      ['burst', false, 'the run could not make its transactions: terminal SIM0000001 is offline'],
    ]);
  });
});
