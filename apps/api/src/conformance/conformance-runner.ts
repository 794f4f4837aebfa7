import { randomUUID } from 'node:crypto';
import type { TransactionEvent } from '@tps/contracts';
import { newWebhookSecret, signWebhook } from '@tps/delivery';
import { CASES, REPORTED_CASES, type CaseName } from './conformance-cases';
import type { CaseReport } from './conformance-report';
import type { ProcessedReport, ReceiverAnswer, RunLimits, RunPorts, TransactionKind } from './run-ports';
import { SearchSightings } from './search-sightings';

/** How a request of the run is signed. */
type Signing = 'valid' | 'wrong' | 'none' | 'stale';

/** stale-timestamp: 10 minutes, twice the 5 minutes Standard Webhooks libraries accept. */
const STALE_SECONDS = 600;
const BURST_TRANSACTIONS = 20;
/** The five events of a scenario-93 charge, its acknowledgement included: 100 over 20 transactions. */
const BURST_KIND: TransactionKind = 'card-retry';
const EXTRA_FIELD = 'x_conformance_extra';
/** How often the receiver's report is read while an id it was sent is not shown processed yet. */
const REPORT_POLL_MS = 200;
/** Read again this long after every id showed: a second processing that comes late is seen too. */
const REPORT_SETTLE_MS = 500;
const SKIPPED_WHY =
  'skipped: the run was given no report_url, so whether the receiver processed each id once cannot be told (both answers being 2xx does not show it)';

export interface RunPlan {
  id: string;
  cases: CaseName[];
  /** The account's whsec_ secret, which signs every request of the run. */
  secret: string;
}

interface CaseContext {
  /** The webhook events of the case's transaction: every stored event after the acknowledgement. */
  events: TransactionEvent[];
  send: (payload: object, id: string, signing?: Signing) => Promise<ReceiverAnswer>;
}

const is2xx = (a: ReceiverAnswer): boolean => a.status !== null && a.status >= 200 && a.status < 300;
const is4xx = (a: ReceiverAnswer): boolean => a.status !== null && a.status >= 400 && a.status < 500;
const is5xx = (a: ReceiverAnswer): boolean => a.status !== null && a.status >= 500;

function told(answer: ReceiverAnswer): string {
  return answer.status === null
    ? `no answer (${answer.error ?? 'none'})`
    : `${answer.status} in ${answer.latencyMs} ms`;
}

function toldAll(sent: Array<[string, ReceiverAnswer]>): string {
  return sent.map(([what, answer]) => `${what}: ${told(answer)}`).join('; ');
}

/** The first event of `status` in a transaction's chain. */
function eventOf(events: TransactionEvent[], status: TransactionEvent['status']): TransactionEvent {
  const event = events.find((e) => e.status === status);
  if (event === undefined) throw new Error(`the run's transaction has no ${status} event`);
  return event;
}

/**
 * One conformance run (contract §17): makes the account's transactions, sends their events to the
 * receiver as each case says, watches the account's searches, and reports each case once decided.
 * Every case but `burst` runs at once; `burst` runs alone afterwards, so that its load is not
 * counted against another case. Whatever is still waiting when `limits.runMs` ends is cut and fails.
 */
export async function runConformance(
  plan: RunPlan,
  ports: RunPorts,
  limits: RunLimits,
  report: (result: CaseReport) => void,
): Promise<void> {
  const { clock } = ports;
  const started = clock.nowMs();
  const runEnd = new AbortController();
  const allDone = new AbortController();
  void clock.sleep(limits.runMs, allDone.signal).then(() => runEnd.abort());
  ports.stop?.addEventListener('abort', () => runEnd.abort(), { once: true });
  const sightings = new SearchSightings(clock);
  const stopWatching = ports.searches((id) => sightings.saw(id));

  const decided = (name: CaseName, passed: boolean, observed: string): void => {
    const { rule, expected, hint } = CASES[name];
    report({ name, rule, expected, observed, passed, hint });
  };

  const send = async (payload: object, id: string, signing: Signing = 'valid'): Promise<ReceiverAnswer> => {
    const body = JSON.stringify(payload);
    const nowSeconds = Math.floor(clock.nowMs() / 1000);
    const timestamp = signing === 'stale' ? nowSeconds - STALE_SECONDS : nowSeconds;
    // `wrong`: a correctly shaped signature, made with a secret the receiver does not have.
    const key = signing === 'wrong' ? newWebhookSecret() : plan.secret;
    const headers: Record<string, string> =
      signing === 'none' ? {} : { ...signWebhook(key, id, timestamp, body) };
    const remaining = started + limits.runMs - clock.nowMs();
    if (remaining <= 0 || runEnd.signal.aborted) {
      return { status: null, error: "the run's time ran out before it was sent", latencyMs: 0 };
    }
    return ports.post(body, headers, Math.min(limits.answerTimeoutMs, remaining), runEnd.signal);
  };

  /**
   * Whether the receiver processed each id once, by its report: read until every id shows (it
   * processes after answering), then once more a little later. Answers the verdict and its words.
   */
  const processedOnce = async (ids: string[]): Promise<[boolean, string]> => {
    const read = ports.report;
    if (read === undefined) return [false, SKIPPED_WHY];
    const deadline = clock.nowMs() + limits.reportWaitMs;
    const shown = (r: ProcessedReport): boolean =>
      'counts' in r && ids.every((id) => (r.counts[id] ?? 0) > 0);
    let reading = await read(ids, runEnd.signal);
    while ('counts' in reading && !shown(reading) && clock.nowMs() < deadline && !runEnd.signal.aborted) {
      await clock.sleep(REPORT_POLL_MS, runEnd.signal);
      reading = await read(ids, runEnd.signal);
    }
    if ('counts' in reading && !runEnd.signal.aborted) {
      await clock.sleep(REPORT_SETTLE_MS, runEnd.signal);
      reading = await read(ids, runEnd.signal);
    }
    if ('error' in reading) return [false, `the report could not be read: ${reading.error}`];
    const { counts } = reading;
    const words = ids.map((id) => `${id} processed ${counts[id] ?? 0} time(s)`).join(', ');
    return [ids.every((id) => counts[id] === 1), `report: ${words}`];
  };

  const searchedAfter = async (events: TransactionEvent[], sentAt: number): Promise<string> => {
    const id = events[0]?.client_transaction_id ?? '';
    const at = await sightings.seenBetween(id, sentAt, sentAt + limits.searchWindowMs, runEnd.signal);
    return at === null
      ? `no transaction search for ${id} within ${limits.searchWindowMs / 1000} s`
      : `searched for ${id} ${Math.max(0, at - sentAt)} ms after the event was sent`;
  };

  const CASE_RUNS: Record<Exclude<CaseName, 'burst'>, (c: CaseContext) => Promise<void>> = {
    'fast-ack': async ({ events }) => {
      const sent: Array<[string, ReceiverAnswer]> = [];
      for (const event of events) sent.push([event.status, await send(event, event.event_id)]);
      const fast = sent.every(([, a]) => is2xx(a) && a.latencyMs <= limits.fastAckMs);
      decided('fast-ack', fast, toldAll(sent));
    },
    'duplicate-event': async ({ events }) => {
      const sent: Array<[string, ReceiverAnswer]> = [];
      for (const event of events) sent.push([event.status, await send(event, event.event_id)]);
      const last = events[events.length - 1];
      if (last !== undefined) sent.push([`${last.status} again`, await send(last, last.event_id)]);
      const [once, reported] = await processedOnce(events.map((e) => e.event_id));
      decided('duplicate-event', sent.every(([, a]) => is2xx(a)) && once, `${toldAll(sent)}; ${reported}`);
    },
    'unknown-field': async ({ events }) => {
      const sent: Array<[string, ReceiverAnswer]> = [];
      for (const [i, event] of events.entries()) {
        const payload =
          i === 0 ? { ...event, [EXTRA_FIELD]: { note: 'a field this receiver does not know' } } : event;
        sent.push([
          i === 0 ? `${event.status} with "${EXTRA_FIELD}"` : event.status,
          await send(payload, event.event_id),
        ]);
      }
      decided(
        'unknown-field',
        sent.every(([, a]) => is2xx(a)),
        toldAll(sent),
      );
    },
    'bad-signature': async ({ events }) => {
      const event = events[0];
      const answer = await send(event, event.event_id, 'wrong');
      decided('bad-signature', is4xx(answer), `${event.status} signed with another secret: ${told(answer)}`);
    },
    'missing-signature': async ({ events }) => {
      const event = events[0];
      const answer = await send(event, event.event_id, 'none');
      decided(
        'missing-signature',
        is4xx(answer),
        `${event.status} without webhook-* headers: ${told(answer)}`,
      );
    },
    'stale-timestamp': async ({ events }) => {
      const event = events[0];
      const answer = await send(event, event.event_id, 'stale');
      decided(
        'stale-timestamp',
        is4xx(answer),
        `${event.status} signed with a timestamp ${STALE_SECONDS / 60} minutes old: ${told(answer)}`,
      );
    },
    'gap-reconcile': async ({ events }) => {
      const presented = eventOf(events, 'CARD_PRESENTED');
      const approved = eventOf(events, 'APPROVAL');
      const sent: Array<[string, ReceiverAnswer]> = [
        ['CARD_PRESENTED', await send(presented, presented.event_id)],
      ];
      const gapAt = clock.nowMs();
      const answer = send(approved, approved.event_id);
      const search = searchedAfter(events, gapAt);
      sent.push(['APPROVAL (previous_status APPROVAL_REQUESTED, never sent)', await answer]);
      const searched = await search;
      decided(
        'gap-reconcile',
        sent.every(([, a]) => is2xx(a)) && searched.startsWith('searched'),
        `${toldAll(sent)}; ${searched}`,
      );
    },
    'out-of-order': async ({ events }) => {
      const presented = eventOf(events, 'CARD_PRESENTED');
      const requested = eventOf(events, 'APPROVAL_REQUESTED');
      const approved = eventOf(events, 'APPROVAL');
      const sent: Array<[string, ReceiverAnswer]> = [
        ['CARD_PRESENTED', await send(presented, presented.event_id)],
      ];
      const swappedAt = clock.nowMs();
      const search = searchedAfter(events, swappedAt);
      sent.push(['APPROVAL', await send(approved, approved.event_id)]);
      sent.push(['APPROVAL_REQUESTED, after APPROVAL', await send(requested, requested.event_id)]);
      const searched = await search;
      decided(
        'out-of-order',
        sent.every(([, a]) => is2xx(a)) && searched.startsWith('searched'),
        `${toldAll(sent)}; ${searched}`,
      );
    },
    'print-duplicate': async () => {
      const callback = {
        printJobId: randomUUID(),
        status: 'COMPLETED',
        externalReference: `conformance-${plan.id}`,
      };
      const first = await send(callback, callback.printJobId);
      const again = await send(callback, callback.printJobId);
      const [once, reported] = await processedOnce([callback.printJobId]);
      decided(
        'print-duplicate',
        is2xx(first) && is2xx(again) && once,
        `print callback ${callback.printJobId}: ${told(first)}; the same again: ${told(again)}; ${reported}`,
      );
    },
  };

  const burst = async (transactions: TransactionEvent[][]): Promise<void> => {
    const rounds = Math.max(...transactions.map((events) => events.length));
    const order: TransactionEvent[] = [];
    // Round-robin over the transactions, so each one's events go out in order, far apart.
    for (let round = 0; round < rounds; round++) {
      for (const events of transactions) if (events[round] !== undefined) order.push(events[round]);
    }
    const burstStart = clock.nowMs();
    const answers = await Promise.all(
      order.map(async (event, i) => {
        await clock.sleep(
          burstStart + (i * limits.burstSpreadMs) / order.length - clock.nowMs(),
          runEnd.signal,
        );
        return send(event, event.event_id);
      }),
    );
    const unanswered = answers.filter((a) => a.status === null).length;
    const failed = answers.filter(is5xx).length;
    const slowest = Math.max(0, ...answers.map((a) => a.latencyMs));
    decided(
      'burst',
      unanswered === 0 && failed === 0,
      `${order.length} events over ${transactions.length} transactions in ${limits.burstSpreadMs} ms: ` +
        `${answers.filter(is2xx).length} 2xx, ${answers.filter(is4xx).length} 4xx, ${failed} 5xx, ` +
        `${unanswered} without an answer; slowest answer ${slowest} ms`,
    );
  };

  try {
    // Without a report, these cases are not run at all: skipped, never passed (contract §17).
    const skipped = ports.report === undefined ? plan.cases.filter((n) => REPORTED_CASES.includes(n)) : [];
    for (const name of skipped) {
      const { rule, expected, hint } = CASES[name];
      report({ name, rule, expected, observed: SKIPPED_WHY, passed: false, skipped: true, hint });
    }
    const others = plan.cases.filter(
      (name): name is Exclude<CaseName, 'burst'> => name !== 'burst' && !skipped.includes(name),
    );
    const needsTransaction = others.filter((name) => name !== 'print-duplicate');
    const kinds: TransactionKind[] = [
      ...needsTransaction.map((): TransactionKind => 'approved'),
      ...(plan.cases.includes('burst') ? Array.from({ length: BURST_TRANSACTIONS }, () => BURST_KIND) : []),
    ];
    let made: TransactionEvent[][];
    try {
      made = await ports.transactions(kinds);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      for (const name of plan.cases) decided(name, false, `the run could not make its transactions: ${why}`);
      return;
    }
    const eventsOf = new Map<CaseName, TransactionEvent[]>(
      needsTransaction.map((name, i) => [name, made[i] ?? []]),
    );
    await Promise.all(
      others.map((name) => {
        const stored = eventsOf.get(name) ?? [];
        return CASE_RUNS[name]({ events: stored.filter((e) => e.status !== 'TERMINAL_ACKNOWLEDGED'), send });
      }),
    );
    if (plan.cases.includes('burst')) await burst(made.slice(needsTransaction.length));
  } finally {
    stopWatching();
    allDone.abort();
  }
}
