import fc from 'fast-check';
import type { TransactionEvent } from '@tps/contracts';
import {
  ContractError,
  canTransition,
  isFinalStatus,
  READING_TYPES,
  TERMINAL_PACES,
  type LifecycleStatus,
} from '@tps/domain';
import type { OperationOrder } from '@tps/link';
import { SCENARIOS } from './scenarios';
import type { TerminalRuntime } from './terminal-runtime';
import { InMemoryStore } from './testing/in-memory-store';
import { ManualTimers, settle } from './testing/manual-timers';
import { abortOrder, harness, order, profile } from './testing/runtime-harness';

/** One thing that can happen to a terminal: the point of sale, the cardholder, time, the link, a crash. */
type Step =
  | { kind: 'operate'; ending: string; mode: 'sync' | 'async'; type: 'charge' | 'authorization' }
  | { kind: 'abort'; mode: 'sync' | 'async'; target: 'none' | 'last' | 'unknown' }
  | { kind: 'card'; action: 'present' | 'cancel'; reading: (typeof READING_TYPES)[number] }
  | { kind: 'advance'; ms: number }
  | { kind: 'pace'; pace: (typeof TERMINAL_PACES)[number] }
  | { kind: 'link'; up: boolean }
  | { kind: 'crash' };

const endings = [...Object.keys(SCENARIOS), '00', '42'];

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('operate' as const),
    ending: fc.constantFrom(...endings),
    mode: fc.constantFrom('sync' as const, 'async' as const),
    type: fc.constantFrom('charge' as const, 'authorization' as const),
  }),
  fc.record({
    kind: fc.constant('abort' as const),
    mode: fc.constantFrom('sync' as const, 'async' as const),
    target: fc.constantFrom('none' as const, 'last' as const, 'unknown' as const),
  }),
  fc.record({
    kind: fc.constant('card' as const),
    action: fc.constantFrom('present' as const, 'cancel' as const),
    reading: fc.constantFrom(...READING_TYPES),
  }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 70_000 }) }),
  fc.record({ kind: fc.constant('pace' as const), pace: fc.constantFrom(...TERMINAL_PACES) }),
  fc.record({ kind: fc.constant('link' as const), up: fc.boolean() }),
  fc.constant({ kind: 'crash' as const }),
);

/** Refusals a terminal may answer; anything else (a thrown transition, say) fails the property. */
const EXPECTED_REFUSALS = new Set(['TER-003', 'TRX-002', 'TRX-006']);

/** The service's end of the uplink: takes the queue in order while the link is up. */
class FakeService {
  up = true;
  readonly received: TransactionEvent[] = [];

  constructor(private readonly store: InMemoryStore) {}

  drain(): void {
    if (!this.up) return;
    for (const queued of this.store.events) {
      if (queued.acked) continue;
      this.received.push(queued.event);
      queued.acked = true;
    }
  }
}

function checkChain(events: TransactionEvent[]): void {
  let previous: LifecycleStatus | null = null;
  let attempt: number | undefined;
  for (const event of events) {
    expect(event.previous_status).toBe(previous ?? '');
    expect(canTransition(previous, event.status)).toBe(true);
    if (event.status === 'CARD_PRESENTED') {
      expect(event.interaction_attempt).toBe((attempt ?? 0) + 1);
      expect(READING_TYPES).toContain(event.reading_type);
    } else {
      expect(event.interaction_attempt).toBe(attempt);
    }
    attempt = event.interaction_attempt;
    expect(event.failure_reason !== undefined).toBe(
      event.status === 'TERMINAL_REJECTED' || event.status === 'DECLINED',
    );
    previous = event.status;
  }
  expect(isFinalStatus(previous)).toBe(true);
}

async function play(steps: Step[]): Promise<void> {
  const store = new InMemoryStore();
  const service = new FakeService(store);
  const unexpected: unknown[] = [];
  let pace: (typeof TERMINAL_PACES)[number] = 'instant';
  let timers = new ManualTimers();
  let terminal = harness(pace, store, timers);
  const boot = (): TerminalRuntime => {
    terminal = harness(pace, store, timers);
    return terminal.runtime;
  };
  let runtime = boot();
  const link = (): void => service.drain();
  let last: OperationOrder | undefined;

  const watch = (reply: Promise<unknown>): void => {
    reply.then(link, (error: unknown) => {
      if (!(error instanceof ContractError) || !EXPECTED_REFUSALS.has(error.code)) unexpected.push(error);
    });
  };
  const openCharges = (): number =>
    [...store.transactions.values()].filter((t) => t.order.type !== 'abort' && !isFinalStatus(t.status))
      .length;

  for (const s of steps) {
    switch (s.kind) {
      case 'operate':
        last = order(s.ending, s.mode, s.type);
        watch(runtime.operate(last));
        break;
      case 'abort': {
        const target =
          s.target === 'none' ? undefined : s.target === 'last' ? last?.clientTransactionId : 'unknown';
        watch(
          s.mode === 'sync'
            ? runtime.abort('demo-merchant', target)
            : runtime.operate(abortOrder('async', target)),
        );
        break;
      }
      case 'card':
        try {
          runtime.card(
            s.action === 'cancel' ? { action: 'cancel' } : { action: 'present', readingType: s.reading },
          );
        } catch (error) {
          if (!(error instanceof ContractError) || error.code !== 'TRX-006') unexpected.push(error);
        }
        break;
      case 'advance':
        await timers.advance(s.ms);
        break;
      case 'pace':
        pace = s.pace;
        runtime.update(profile(pace));
        break;
      case 'link':
        service.up = s.up;
        break;
      case 'crash':
        // The old process is gone with its timers; a new one recovers from the same store.
        timers = new ManualTimers();
        runtime = boot();
        await runtime.recover();
        break;
      default: {
        const unknownStep: never = s;
        throw new Error(`unknown step ${JSON.stringify(unknownStep)}`);
      }
    }
    await settle();
    link();
    expect(openCharges()).toBeLessThanOrEqual(1);
  }
  await timers.runAll();
  service.up = true;
  link();

  expect(unexpected).toEqual([]);
  expect(terminal.errors).toEqual([]);
  const byTransaction = new Map<string, TransactionEvent[]>();
  for (const event of service.received) {
    byTransaction.set(event.client_transaction_id, [
      ...(byTransaction.get(event.client_transaction_id) ?? []),
      event,
    ]);
  }
  // Every stored event reached the service once, in the order the terminal emitted it.
  expect(service.received.map((e) => e.event_id)).toEqual(store.events.map((e) => e.event.event_id));
  expect(new Set(service.received.map((e) => e.event_id)).size).toBe(service.received.length);
  expect(byTransaction.size).toBe(store.transactions.size);
  for (const events of byTransaction.values()) checkChain(events);
}

describe('TerminalRuntime property: never an edge outside the specification’s table', () => {
  it('holds over random sequences of scenarios, cards, cancels, aborts, link drops and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => play(steps)),
      { numRuns: 150, seed: 20261123 },
    );
  });
});
