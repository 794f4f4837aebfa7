import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verifyWebhook } from '@tps/delivery';
import { Ledger, needsReconcile, type PaymentEvent } from '../examples/webhook-receiver/ledger';
import {
  REPORT_PATH,
  parseObject,
  readBody,
  report,
  verifier,
  type ReceiverConfig,
} from '../examples/webhook-receiver/receiver';
import { searchTransaction } from '../examples/webhook-receiver/transaction-search';

/**
 * Receivers that each break one consumer rule of contract §17 and follow the others: the
 * reference receiver's own steps (examples/webhook-receiver), with one step changed.
 */
interface Breakage {
  /** Replaces the Standard Webhooks verification. */
  verify?: (secret: string) => (body: string, headers: IncomingHttpHeaders) => boolean;
  /** Takes a request without webhook-* headers as it comes. */
  unsignedAccepted?: true;
  /** Answers this status instead of 2xx, after verifying. */
  refuse?: (message: Record<string, unknown>) => number | undefined;
  /** Processes before answering, this long. */
  processingMs?: number;
  needsReconcile?: typeof needsReconcile;
}

const RANK: Record<string, number> = { TERMINAL_ACKNOWLEDGED: 0, CARD_PRESENTED: 1, APPROVAL_REQUESTED: 2 };
const rankOf = (status: string): number => RANK[status] ?? 3;

/** The envelope's fields as a receiver with a closed schema knows them. */
const KNOWN_FIELDS = new Set([
  'event_id',
  'previous_status',
  'occurred_at',
  'status',
  'merchant_id',
  'client_transaction_id',
  'interaction_attempt',
  'reading_type',
  'failure_reason',
  'terminal',
  'operation',
  'printJobId',
  'externalReference',
  'errorCode',
  'errorMessage',
]);

function seenBefore(): (key: unknown) => boolean {
  const seen = new Set<unknown>();
  return (key) => {
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  };
}

function uniqueKey(field: string): Breakage['refuse'] {
  const repeated = seenBefore();
  // An insert under a unique key before answering: a repeat fails with a 5xx.
  return (message) => (typeof message[field] === 'string' && repeated(message[field]) ? 500 : undefined);
}

const BREAKAGES: Record<string, () => Breakage> = {
  'fast-ack': () => ({ processingMs: 2500 }),
  'duplicate-event': () => ({ refuse: uniqueKey('event_id') }),
  'unknown-field': () => ({
    refuse: (message) => (Object.keys(message).every((key) => KNOWN_FIELDS.has(key)) ? undefined : 400),
  }),
  // Checks that the headers are there and the timestamp fresh, but not the signature itself.
  'bad-signature': () => ({
    verify: () => (_body, headers) =>
      typeof headers['webhook-signature'] === 'string' &&
      Math.abs(Date.now() / 1000 - Number(headers['webhook-timestamp'])) <= 300,
  }),
  'missing-signature': () => ({ unsignedAccepted: true }),
  // Checks the signature, whatever its timestamp.
  'stale-timestamp': () => ({
    verify: (secret) => (body, headers) =>
      verifyWebhook(
        secret,
        headers as Record<string, string>,
        body,
        Date.now() / 1000,
        Number.POSITIVE_INFINITY,
      ),
  }),
  // Reconciles only an event older than the state it holds: trusts a newer one that skips a state.
  'gap-reconcile': () => ({
    needsReconcile: (last: string, event: PaymentEvent) => rankOf(event.status) < rankOf(last),
  }),
  // Refuses an event older than the state it holds, instead of answering 2xx and reconciling.
  'out-of-order': () => {
    const held = new Map<unknown, number>();
    return {
      refuse: (message) => {
        if (typeof message.status !== 'string' || message.printJobId !== undefined) return undefined;
        const rank = rankOf(message.status);
        if (rank < (held.get(message.client_transaction_id) ?? 0)) return 409;
        held.set(message.client_transaction_id, rank);
        return undefined;
      },
    };
  },
  // Its endpoint is rate-limited to 50 requests a second.
  burst: () => {
    const times: number[] = [];
    return {
      refuse: () => {
        const now = Date.now();
        while (times.length > 0 && times[0] < now - 1000) times.shift();
        times.push(now);
        return times.length > 50 ? 503 : undefined;
      },
    };
  },
  'print-duplicate': () => ({ refuse: uniqueKey('printJobId') }),
};

export const BROKEN_RULES = Object.keys(BREAKAGES);

export function brokenReceiver(config: ReceiverConfig, rule: string): Server {
  const breakage = BREAKAGES[rule]();
  const verify = (breakage.verify ?? verifier)(config.webhookSecret);
  const ledger = new Ledger({
    search: (id) => searchTransaction(config, id),
    ...(breakage.needsReconcile === undefined ? {} : { needsReconcile: breakage.needsReconcile }),
  });
  return createServer((request, response) => {
    void readBody(request).then(async (body) => {
      if (body === null) return response.writeHead(413).end();
      if (request.method === 'GET' && request.url?.startsWith(REPORT_PATH)) {
        return report(ledger, request, response);
      }
      const unsigned = request.headers['webhook-signature'] === undefined;
      if (!(breakage.unsignedAccepted && unsigned) && !verify(body, request.headers)) {
        return response.writeHead(401).end();
      }
      const message = parseObject(body);
      if (message === null) return response.writeHead(400).end();
      const refusal = breakage.refuse?.(message);
      if (refusal !== undefined) return response.writeHead(refusal).end();
      if (breakage.processingMs !== undefined) {
        ledger.take(message);
        await new Promise((resolve) => setTimeout(resolve, breakage.processingMs));
        return response.writeHead(204).end();
      }
      response.writeHead(204).end();
      setImmediate(() => ledger.take(message));
    });
  });
}

/**
 * A receiver that answers every verified delivery 2xx at once and processes each one, repeats
 * included: no deduplication by event_id or printJobId. Its report tells the truth about it.
 */
export function noDedupReceiver(config: ReceiverConfig): Server {
  const verify = verifier(config.webhookSecret);
  const times = new Map<string, number>();
  return createServer((request, response) => {
    void readBody(request).then((body) => {
      if (body === null) return response.writeHead(413).end();
      if (request.method === 'GET' && request.url?.startsWith(REPORT_PATH)) {
        const asked = new URL(request.url, 'http://receiver').searchParams.get('ids')?.split(',') ?? [];
        const counts = Object.fromEntries(asked.map((id) => [id, times.get(id) ?? 0]));
        return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
      }
      if (!verify(body, request.headers)) return response.writeHead(401).end();
      const message = parseObject(body);
      if (message === null) return response.writeHead(400).end();
      const id = message.event_id ?? message.printJobId;
      if (typeof id === 'string') times.set(id, (times.get(id) ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
}
