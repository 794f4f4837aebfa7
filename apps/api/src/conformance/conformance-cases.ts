/** The cases of a conformance run (contract §17), in the order a report lists them. */
export const CASE_NAMES = [
  'fast-ack',
  'duplicate-event',
  'unknown-field',
  'bad-signature',
  'missing-signature',
  'stale-timestamp',
  'gap-reconcile',
  'out-of-order',
  'burst',
  'print-duplicate',
] as const;

export type CaseName = (typeof CASE_NAMES)[number];

export interface CaseDefinition {
  /** The consumer rule of the specification the case checks. */
  rule: string;
  /** What a conforming receiver does, in the words of the report. */
  expected: string;
  /** What to change when the case fails. */
  hint: string;
}

export const CASES: Record<CaseName, CaseDefinition> = {
  'fast-ack': {
    rule: 'answer 2xx at once and process later',
    expected: 'every answer is 2xx within 2 s',
    hint: 'Answer 2xx as soon as the signature is verified and the event is stored; do the work (database writes, emails, calls) after answering, e.g. from a queue.',
  },
  'duplicate-event': {
    rule: 'deduplicate by event_id',
    expected:
      "the same event sent twice is answered 2xx both times, and the receiver's report says each event_id was processed once",
    hint: 'Deliveries are at-least-once: keep the event_id of what you processed and answer 2xx to a repeat without processing it again (a unique-key error must not become a 5xx).',
  },
  'unknown-field': {
    rule: 'accept fields you do not know',
    expected: 'an event with an extra field is answered 2xx',
    hint: 'Read the fields you need and ignore the others: new fields may be added to the envelope without notice. Do not validate webhook bodies with a closed schema.',
  },
  'bad-signature': {
    rule: 'verify the signature',
    expected: 'an event whose webhook-signature does not match is answered 4xx',
    hint: 'Verify webhook-signature (v1, HMAC-SHA256 of "id.timestamp.body" with your whsec_ secret) over the raw body before using the event, e.g. with a Standard Webhooks library, and answer 4xx when it does not match.',
  },
  'missing-signature': {
    rule: 'verify the signature',
    expected: 'an event without webhook-* headers is answered 4xx',
    hint: 'Once your account has a webhook secret every delivery is signed: refuse (4xx) a request without webhook-id, webhook-timestamp and webhook-signature instead of treating the signature as optional.',
  },
  'stale-timestamp': {
    rule: 'verify the signature',
    expected: 'a correctly signed event whose webhook-timestamp is 10 minutes old is answered 4xx',
    hint: 'Check webhook-timestamp against your clock (Standard Webhooks libraries allow 5 minutes) so that a captured request cannot be replayed later.',
  },
  'gap-reconcile': {
    rule: 'a previous_status that differs from the last recorded state means a missing event: reconcile through transaction search',
    expected:
      'APPROVAL whose previous_status skips the last state sent is answered 2xx, and the receiver searches for its client_transaction_id within the window',
    hint: 'Correlate events by client_transaction_id and compare previous_status with the state you last recorded; when they differ, call transaction search (POST /terminal/v1/sync/transaction_search_online with client_transaction_id) and take the state from there.',
  },
  'out-of-order': {
    rule: 'a previous_status that differs from the last recorded state means an out-of-order event: reconcile through transaction search',
    expected:
      'APPROVAL sent before APPROVAL_REQUESTED: every answer is 2xx, and the receiver searches for its client_transaction_id within the window',
    hint: 'An event may arrive after a later one of its transaction: answer it 2xx (a refusal makes it come back again), never let it move the state backwards, and reconcile through transaction search.',
  },
  burst: {
    rule: 'answer 2xx at once and process later',
    expected: '100 events in 1 s over 20 transactions: no answer times out, none is 5xx',
    hint: 'Take events into a queue and answer at once; do not rate-limit or serialize the webhook endpoint to the pace of your processing.',
  },
  'print-duplicate': {
    rule: 'deduplicate print callbacks by printJobId',
    expected:
      "the same print callback sent twice is answered 2xx both times, and the receiver's report says its printJobId was processed once",
    hint: 'Keep the printJobId of the callbacks you processed and answer 2xx to a repeat without processing it again.',
  },
};

/** The cases decided from the receiver's report of what it processed: skipped without `report_url`. */
export const REPORTED_CASES: readonly CaseName[] = ['duplicate-event', 'print-duplicate'];

export function isCaseName(value: unknown): value is CaseName {
  return typeof value === 'string' && (CASE_NAMES as readonly string[]).includes(value);
}
