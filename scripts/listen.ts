#!/usr/bin/env node
/**
 * Forwards the account's webhooks to a local URL, like `stripe listen` (contract §6.1):
 *   npm run listen -- --forward-to LOCAL_URL [--sandbox SANDBOX_URL]
 * It opens a signed WebSocket to the sandbox, which sends it a copy of each webhook attempt; it
 * POSTs each copy to LOCAL_URL with the same headers and bytes (so a Standard Webhooks check
 * passes), prints one line per copy with the local answer and sends that answer back, recorded
 * beside the attempt (the attempt's own only when the event has no URL the sandbox may send
 * to). A cut connection is opened again. The sandbox and
 * the account are taken as `npm run trigger` takes them. Exit code 1 when the sandbox refuses the
 * credentials, 2 on bad usage.
 */
import WebSocket from 'ws';
import { signedHeaders, type Credentials } from '@tps/client';
import { LISTEN_PATH, type ListenAnswer, type ListenDelivery } from '@tps/contracts';
import { postWebhook, type PostResult } from '@tps/delivery';
import { parseInvocation, USAGE } from './listen/arguments';
import { sandboxUrl, toolCredentials } from './sandbox-client';

/** The local receiver's time to answer, as the sandbox gives a URL (contract §6). */
const LOCAL_TIMEOUT_MS = 10_000;
/** The sandbox pings every 10 s; this long without one means the connection is gone. */
const SILENCE_MS = 35_000;
const RECONNECT_MS = [500, 1000, 2000, 5000];

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/**
 * The event's status and id: `webhook-id` when the merchant signs, else the body's `event_id`
 * (or a print callback's `printJobId`), so an unsigned delivery is named too.
 */
function eventWords(body: string, webhookId: string | undefined): { status: string; id: string } {
  let parsed: { status?: unknown; event_id?: unknown; printJobId?: unknown } = {};
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null) parsed = value;
  } catch {
    // Not JSON: shown as an event with whatever id the headers give.
  }
  const bodyId = [parsed.event_id, parsed.printJobId].find((v): v is string => typeof v === 'string');
  return {
    status: typeof parsed.status === 'string' ? parsed.status : 'event',
    id: webhookId ?? bodyId ?? '-',
  };
}

function answerOf(attemptId: string, result: PostResult): ListenAnswer {
  const { outcome } = result;
  return {
    type: 'answer',
    attempt_id: attemptId,
    ...('statusCode' in outcome
      ? { status_code: outcome.statusCode }
      : {
          // The kinds the listen wire names; a local post comes to no other (neither is made here).
          error:
            outcome.error === 'destination_refused' || outcome.error === 'secret_unavailable'
              ? 'network_error'
              : outcome.error,
        }),
    latency_ms: result.latencyMs,
    excerpt: result.answerExcerpt.slice(0, 1024),
  };
}

class Listener {
  private failures = 0;

  constructor(
    private readonly sandbox: string,
    private readonly forwardTo: string,
    private readonly credentials: Credentials,
  ) {}

  connect(): void {
    const signed = signedHeaders(this.credentials, 'GET', LISTEN_PATH);
    const ws = new WebSocket(`${this.sandbox.replace(/^http/, 'ws')}${LISTEN_PATH}`, {
      headers: { authorization: signed.authorization, timestamp: signed.timestamp },
    });
    let silence: NodeJS.Timeout | undefined;
    const expectPing = (): void => {
      clearTimeout(silence);
      silence = setTimeout(() => ws.terminate(), SILENCE_MS);
    };
    let refused = false;
    ws.on('unexpected-response', (_request, response) => {
      refused = true;
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => {
        if (response.statusCode === 401) {
          process.stderr.write(
            `the sandbox refused the credentials of ${this.credentials.merchantId}: ${body}\n`,
          );
          process.exit(1);
        }
        print(`the sandbox answered ${response.statusCode ?? '?'}: ${body}`);
        this.again();
      });
    });
    ws.on('open', () => {
      this.failures = 0;
      expectPing();
      print(
        `Ready: forwarding the webhooks of ${this.credentials.merchantId} to ${this.forwardTo} (Ctrl-C to stop)`,
      );
    });
    ws.on('ping', expectPing);
    ws.on('message', (data: Buffer) => void this.forward(ws, data.toString('utf8')));
    ws.on('close', (code) => {
      clearTimeout(silence);
      // A refused upgrade has reported itself and decided what comes next.
      if (refused) return;
      print(`connection lost (${code}); reconnecting`);
      this.again();
    });
    ws.on('error', () => undefined);
  }

  private again(): void {
    const delay = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)];
    this.failures += 1;
    setTimeout(() => this.connect(), delay);
  }

  private async forward(ws: WebSocket, text: string): Promise<void> {
    let delivery: ListenDelivery;
    try {
      delivery = JSON.parse(text) as ListenDelivery;
    } catch {
      return;
    }
    if (delivery.type !== 'delivery') return;
    const result = await postWebhook(
      { url: this.forwardTo, body: delivery.body, headers: delivery.headers },
      { timeoutMs: LOCAL_TIMEOUT_MS },
    );
    const answered =
      'statusCode' in result.outcome ? String(result.outcome.statusCode) : result.outcome.error;
    const event = eventWords(delivery.body, delivery.headers['webhook-id']);
    print(
      `${new Date().toISOString()}  ${event.status}  ${event.id}  --> ${answered} (${result.latencyMs} ms)`,
    );
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(answerOf(delivery.attempt_id, result)));
  }
}

function main(): void {
  const invocation = parseInvocation(process.argv.slice(2));
  if (invocation.kind === 'usage') {
    process.stderr.write(`${invocation.problem}\n${USAGE}`);
    process.exit(2);
  }
  new Listener(sandboxUrl(invocation.sandbox), invocation.forwardTo, toolCredentials()).connect();
}

main();
