import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  raw: string;
  at: number;
}

/** How the receiver answers the n-th request (from 1); the default is 200 at once. */
export type Responder = (request: ReceivedRequest, n: number, response: ServerResponse) => void;

export const answerWith =
  (...statuses: number[]): Responder =>
  (_request, n, response) => {
    response.statusCode = statuses[Math.min(n, statuses.length) - 1] ?? 200;
    response.end();
  };

/**
 * A receiver that hangs: it accepts the connection, reads the whole request and never answers,
 * so each attempt lasts until the sender's timeout. `close()` cuts the connections it holds.
 */
export const neverAnswer: Responder = () => undefined;

/** How a receiver's `url()` marks its paths; a path marked so but not with its own mark is a stray. */
const MARK = /^\/_receiver-[0-9a-f]{12}(?=[/?]|$)/;

/**
 * A real HTTP server on 127.0.0.1 that records every webhook it receives. Its URLs carry a mark
 * of its own, left out of the paths it records: a request marked for another receiver (a sender
 * of another test still at work after that receiver closed, its port now this one's) is answered
 * 410 at once and neither recorded nor counted (`connections` alone counts its connection).
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  /** TCP connections accepted, even those that never made a request (a TLS hello to plain HTTP). */
  connections = 0;
  /** Requests under way: from their arrival until answered, or cut by the sender (a timeout). */
  open = 0;
  /** The most requests ever under way at once. */
  mostOpen = 0;
  /** Requests under way by path (another test's sender may reach a port this one took after it). */
  private readonly openByPath = new Map<string, number>();
  private readonly mostOpenByPath = new Map<string, number>();
  private readonly mark = `/_receiver-${randomBytes(6).toString('hex')}`;
  private server: Server | undefined;
  private waiters: Array<() => void> = [];
  private responder: Responder = answerWith(200);

  static async start(responder?: Responder): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    if (responder) receiver.respondWith(responder);
    await receiver.listen();
    return receiver;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${this.mark}${path}`;
  }

  /** Requests to `path` under way now. */
  openAt(path: string): number {
    return this.openByPath.get(path) ?? 0;
  }

  /** The most requests to `path` ever under way at once. */
  mostOpenAt(path: string): number {
    return this.mostOpenByPath.get(path) ?? 0;
  }

  bodies<T = Record<string, unknown>>(path?: string): T[] {
    return this.received.filter((r) => path === undefined || r.path === path).map((r) => r.body as T);
  }

  /** Resolves once `predicate` holds over what was received; rejects after `timeoutMs`. */
  async waitFor(predicate: (received: ReceivedRequest[]) => boolean, timeoutMs = 10_000): Promise<void> {
    if (predicate(this.received)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(
          new Error(
            `webhook receiver: condition not met in ${timeoutMs} ms (${this.received.length} received)`,
          ),
        );
      }, timeoutMs);
      const check = (): void => {
        if (!predicate(this.received)) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    this.server = createServer((request, response) => {
      const target = request.url ?? '';
      const mark = MARK.exec(target)?.[0];
      if (mark !== undefined && mark !== this.mark) {
        request.resume();
        response.statusCode = 410;
        response.end();
        return;
      }
      const path = mark === undefined ? target : target.slice(mark.length) || '/';
      this.open += 1;
      this.mostOpen = Math.max(this.mostOpen, this.open);
      this.openByPath.set(path, this.openAt(path) + 1);
      this.mostOpenByPath.set(path, Math.max(this.mostOpenAt(path), this.openAt(path)));
      let underWay = true;
      const ended = (): void => {
        if (!underWay) return;
        underWay = false;
        this.open -= 1;
        this.openByPath.set(path, this.openAt(path) - 1);
        request.socket.off('end', ended);
      };
      response.once('close', ended);
      // A sender that gives up (its timeout) closes its side first: from then on the request is no
      // longer under way, though our side closes a turn later, maybe after its next request came.
      request.socket.once('end', ended);
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // not JSON: kept as text
        }
        const received: ReceivedRequest = {
          path,
          headers: request.headers,
          body,
          raw,
          at: Date.now(),
        };
        this.received.push(received);
        this.responder(received, this.received.length, response);
        for (const waiter of [...this.waiters]) waiter();
      });
    });
    const server = this.server;
    server.on('connection', () => (this.connections += 1));
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  }
}
