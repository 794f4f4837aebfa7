import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Webhook } from 'standardwebhooks';
import { Ledger, type LedgerOptions } from './ledger';
import { searchTransaction, type ServiceAccess } from './transaction-search';

const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceiverConfig extends ServiceAccess {
  /** The account's `whsec_` secret (POST /sandbox/webhook-secret). */
  webhookSecret: string;
  onStatus?: LedgerOptions['onStatus'];
  onError?: LedgerOptions['onError'];
}

/** The raw body, as signed: verify it before parsing it. */
export function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Standard Webhooks verification: signature over id.timestamp.body and a 5-minute timestamp tolerance. */
export function verifier(secret: string): (body: string, headers: IncomingHttpHeaders) => boolean {
  const webhook = new Webhook(secret);
  return (body, headers) => {
    try {
      webhook.verify(body, {
        'webhook-id': String(headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(headers['webhook-signature'] ?? ''),
      });
      return true;
    } catch {
      return false;
    }
  };
}

export function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Where the receiver tells what it processed: a conformance run's `report_url`. */
export const REPORT_PATH = '/processed';
const MAX_REPORT_IDS = 1000;

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://receiver').pathname;
}

/**
 * `GET /processed?ids=a,b` answers `{ "a": times_processed, … }`, so a conformance run can check
 * that a repeated event or print callback was processed once. It tells ids and counts only.
 */
export function report(ledger: Ledger, request: IncomingMessage, response: ServerResponse): void {
  const asked = new URL(request.url ?? '/', 'http://receiver').searchParams.get('ids');
  const ids = asked === null ? undefined : asked.split(',').slice(0, MAX_REPORT_IDS);
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ledger.processed(ids)));
}

/**
 * A webhook receiver as the specification asks one to be: verify the signature and its timestamp,
 * answer 2xx at once, then process (deduplicate, correlate, reconcile) after the answer.
 */
export function createReceiver(config: ReceiverConfig): { server: Server; ledger: Ledger } {
  const verify = verifier(config.webhookSecret);
  const ledger = new Ledger({
    search: (id) => searchTransaction(config, id),
    onStatus: config.onStatus,
    onError: config.onError,
  });
  const server = createServer((request, response) => {
    void readBody(request).then(
      (body) => {
        if (body === null) return response.writeHead(413).end();
        if (request.method === 'GET' && pathOf(request) === REPORT_PATH)
          return report(ledger, request, response);
        if (request.method !== 'POST') return response.writeHead(405).end();
        if (!verify(body, request.headers)) return response.writeHead(401).end();
        const message = parseObject(body);
        if (message === null) return response.writeHead(400).end();
        response.writeHead(204).end();
        setImmediate(() => ledger.take(message));
      },
      () => response.writeHead(400).end(),
    );
  });
  return { server, ledger };
}
