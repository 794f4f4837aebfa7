import { createHash } from 'node:crypto';
import { TERMINAL_SERIAL_PARAM } from '../terminals/terminal-target.decorator';

type Body = Record<string, unknown>;

/**
 * The transaction a follow-up example names. Transaction references are the acquirer's own, so no
 * example can name one that exists: on a fresh sandbox it is 404 NF-001; "Try it out" with the
 * `transaction_reference` of your own charge's `rawResponse` in its place.
 */
const EXAMPLE_REFERENCE = '6b2f3c1d-4e5a-4b7c-8d9e-0f1a2b3c4d5e';

/** Total 116.00 MXN: its centavos end in 00, which the sandbox approves (contract §10). */
const AMOUNT = { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 };
const METADATA = { reference: 'order-1234' };

/**
 * A UUID of its own for each operation, the same in every document, and recognisable as an
 * example's: all zeros but its last twelve digits. "Try it out" in /docs sends a fresh id in its
 * place on each execution (`signDocsRequest`), so no visitor is answered with another's charge;
 * an id typed in its place stays, and a repeat of it shows the first answer again (contract §5).
 */
function exampleId(operationId: string): string {
  const hex = createHash('sha256').update(operationId).digest('hex');
  return `00000000-0000-4000-8000-${hex.slice(0, 12)}`;
}

const payment = (fields: Body) => (id: string) => ({
  client_transaction_id: id,
  ...fields,
  metadata: METADATA,
});
const followUp = (fields: Body = {}) => payment({ transaction_reference: EXAMPLE_REFERENCE, ...fields });
const search = () => ({ operation_type: 'charge', status: 'APPROVAL', limit: 10 });

/**
 * The example body of every operation that takes one, by method and path with the Cloud form's
 * serial left out (both forms take the same body). Sandbox values: amounts that approve, the
 * seeded fleet, no webhook URL where it is optional (an example's would be nobody's receiver).
 */
const EXAMPLES: Record<string, (id: string) => Body> = {
  'POST /terminal/v1/sync/charge': payment({ amount: AMOUNT }),
  'POST /terminal/v1/async/charge': payment({ amount: AMOUNT }),
  'POST /terminal/v1/sync/authorization': payment({ amount: AMOUNT }),
  'POST /terminal/v1/async/authorization': payment({ amount: AMOUNT }),
  'POST /authorization': payment({ amount: AMOUNT }),
  'POST /terminal/v1/sync/capture': followUp(),
  'POST /terminal/v1/async/capture': followUp(),
  'POST /terminal/v1/sync/re_authorization': followUp({ amount: { ...AMOUNT, subtotal_iva: 20000 } }),
  'POST /terminal/v1/async/re_authorization': followUp({ amount: { ...AMOUNT, subtotal_iva: 20000 } }),
  'POST /terminal/v1/sync/pos_tip': followUp({ tip: 1500 }),
  'POST /terminal/v1/async/pos_tip': followUp({ tip: 1500 }),
  'POST /terminal/v1/sync/void': followUp(),
  'POST /terminal/v1/async/void': followUp(),
  'POST /terminal/v1/sync/refund': followUp(),
  'POST /terminal/v1/sync/transaction_search_online': search,
  'POST /terminal/v1/sync/transaction_search_local': search,
  // Whatever runs on the terminal: on an idle one, 409 TRX-002.
  'POST /terminal/v1/sync/abort': () => ({}),
  'POST /terminal/v1/async/abort': (id) => ({ client_transaction_id: id }),
  'POST /terminal/v1/print': () => ({
    commands: [
      { type: 'text', value: 'Thank you for your visit', align: 'center', bold: true },
      { type: 'qr', value: 'order-1234' },
      { type: 'feed', lines: 2 },
      { type: 'cut' },
    ],
    externalReference: 'order-1234',
  }),
  'POST /sandbox/terminals': () => ({ serial: 'LANE0042', pace: 'instant', room: 'front-desk' }),
  'PATCH /sandbox/terminals/{serial}': () => ({ pace: 'instant' }),
  // Nothing waits for a card unless a charge ending in 97 runs: 409 TRX-006 otherwise.
  'POST /sandbox/terminals/{serial}/card': () => ({ action: 'present', reading_type: 'CHIP' }),
  'POST /sandbox/clock': () => ({ advance_seconds: 3600 }),
  'POST /sandbox/accounts': () => ({ terminals: 2, pace: 'instant' }),
  // The replaced secret keeps signing beside the new one for an hour.
  'POST /sandbox/webhook-secret/rotate': () => ({ overlap_seconds: 3600 }),
  // A receiver on the sandbox's own machine, never an outside host: start one there first
  // (examples/webhook-receiver).
  'POST /sandbox/conformance-runs': () => ({
    url: 'http://127.0.0.1:4000/webhooks/payments',
    cases: ['fast-ack', 'duplicate-event'],
  }),
};

/** The example body of an operation, or undefined when it has none. */
export function requestExample(method: string, template: string, operationId: string): Body | undefined {
  const path = template.replace(`/{${TERMINAL_SERIAL_PARAM}}/`, '/');
  return EXAMPLES[`${method.toUpperCase()} ${path}`]?.(exampleId(operationId));
}
