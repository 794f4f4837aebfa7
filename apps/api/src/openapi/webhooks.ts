import { getSchemaPath, type ParameterObject, type PathItemObject } from '@nestjs/swagger';
import { PrintWebhookPayloadDoc, TransactionEventDoc } from '@tps/contracts/dto';
import { LIFECYCLE_STATUSES } from '@tps/domain';

/** The Standard Webhooks headers, sent when the merchant has a webhook secret (contract §6). */
const STANDARD_WEBHOOKS_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: false,
    description:
      "the message id, the same on every attempt: a transaction event's `event_id`, a print callback's `printJobId`; deduplicate by it",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: false,
    description: 'Unix seconds on the real clock when the attempt was signed',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: false,
    description:
      '`v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed by the base64-decoded part of the `whsec_` secret after the prefix (POST /sandbox/webhook-secret makes one)',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

const ACKNOWLEDGED = {
  description: 'any 2xx acknowledges the delivery',
};

/** Statuses that reach the webhook: every one after the TERMINAL_ACKNOWLEDGED of the answer. */
const DELIVERED_STATUSES = LIFECYCLE_STATUSES.filter((status) => status !== 'TERMINAL_ACKNOWLEDGED');

function transactionEventHook(status: (typeof DELIVERED_STATUSES)[number]): PathItemObject {
  return {
    post: {
      operationId: `transactionEvent_${status}`,
      summary: `Transaction event ${status}`,
      description: [
        `Sent to the operation's \`events_webhook_url\` when the transaction reaches ${status}.`,
        'Events of one transaction arrive in order; a failed attempt is retried (timeouts, refused or reset',
        'connections, 408, 429, 5xx) after min(60 s, 2 s × 2^(k-1)) plus up to 2 s of jitter, at most 10',
        'attempts within 15 minutes; other statuses give up at once and redirects are not followed.',
        'Delivery is at least once: deduplicate by `event_id`.',
      ].join(' '),
      tags: ['webhooks'],
      security: [],
      parameters: STANDARD_WEBHOOKS_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: getSchemaPath(TransactionEventDoc) },
                { type: 'object', properties: { status: { type: 'string', enum: [status] } } },
              ],
            },
          },
        },
      },
      responses: { '200': ACKNOWLEDGED },
    },
  };
}

const printJobFinished: PathItemObject = {
  post: {
    operationId: 'printJobFinished',
    summary: 'Print job COMPLETED or FAILED',
    description:
      "Sent by the service to the job's `webhookUrl` once, after the terminal reported the job's end, when the job is COMPLETED or FAILED: 15 s timeout, no retry, redirects not followed. The job record (`GET …/print/{printJobId}`) shows the outcome of that one attempt as `callback`.",
    tags: ['webhooks'],
    security: [],
    parameters: STANDARD_WEBHOOKS_HEADERS,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: getSchemaPath(PrintWebhookPayloadDoc) } } },
    },
    responses: { '200': ACKNOWLEDGED },
  },
};

/** The `webhooks` of the document: what the service sends to the merchant's receivers. */
export function webhooks(): Record<string, PathItemObject> {
  return {
    ...Object.fromEntries(
      DELIVERED_STATUSES.map((status) => [`transaction.${status}`, transactionEventHook(status)]),
    ),
    'print.finished': printJobFinished,
  };
}
