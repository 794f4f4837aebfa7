import { createHash, randomUUID } from 'node:crypto';
import {
  Agent,
  createServer,
  get,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PeriodicTask } from '@tps/background';

/** How often each replica's own liveness (`GET /health`) is checked, and how long a check may take. */
const CHECK_EVERY_MS = 1000;
const CHECK_TIMEOUT_MS = 3000;
/** A replica that refused a connection is skipped for this long, checks or not. */
const SKIP_AFTER_REFUSAL_MS = 1000;
/** The largest body the front holds to send again: above the service's own limit (1 MiB). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** What the service's request ids may be (contract, "Request ids"): the caller's, when usable. */
const USABLE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;
/** Headers of one hop, not passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** The service's own 503s: nothing was taken, so the request may go to another replica (contract §19). */
const NOT_TAKEN = new Set(['INT-002', 'TER-001']);

/**
 * The terminal a request is for, when its path or its link names it: a terminal's uplink (its
 * serial in a header) and the requests whose path names the terminal (the Cloud form, its sandbox
 * controls), as the compose profile's balancer reads them (deploy/haproxy-cluster.cfg).
 */
export function terminalOf(path: string, headers: IncomingHttpHeaders): string | undefined {
  const bare = path.split('?')[0];
  if (bare === '/link/terminal') {
    const serial = headers['x-terminal-serial'];
    return typeof serial === 'string' ? serial : undefined;
  }
  return (
    /^\/terminal\/v1\/([A-Za-z0-9_-]{1,32})\/(?:sync|async|print)(?:\/|$)/.exec(bare)?.[1] ??
    /^\/sandbox\/terminals\/([A-Za-z0-9_-]{1,32})(?:\/|$)/.exec(bare)?.[1]
  );
}

/**
 * The replica of `ports` a terminal's requests and link go to: the highest of a hash of the
 * serial with each port (rendezvous hashing). A replica that leaves moves only its own terminals,
 * and one that comes back takes back only those.
 */
export function replicaFor(serial: string, ports: readonly number[]): number | undefined {
  let best: { port: number; score: string } | undefined;
  for (const port of ports) {
    const score = createHash('sha1').update(`${serial}/${port}`).digest('hex');
    if (best === undefined || score > best.score) best = { port, score };
  }
  return best?.port;
}

function answerOwn(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  requestId: string,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const type = code.startsWith('PAR') ? 'PARAMETER' : 'INTERNAL';
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Request-Id': requestId,
    ...(status === 503 ? { 'Retry-After': '1' } : {}),
  });
  response.end(JSON.stringify({ type, code, message, request_id: requestId }));
}

/**
 * The load balancer of `npm run start:cluster` on one machine, for callers and terminals, as the
 * compose profile's HAProxy does it (docs/contract.md, "The balancer of the compose profile"): a
 * terminal's uplink and the requests that name the terminal go to one replica by its serial, so
 * that they reach the replica holding its link; everything else goes round robin. A replica is in
 * the rotation while its own `GET /health` answers 200 (checked every second): a draining one
 * leaves it. A request whose replica refused the connection, or answered the service's own 503
 * (nothing was taken), is sent to another; with none left, the front answers 503 INT-002 itself,
 * and 502 INT-005 for a replica that went away while answering (outcome unknown: ask again with
 * the same client_transaction_id).
 */
export class ClusterFront {
  readonly server: Server;
  private readonly agent = new Agent({ keepAlive: true });
  private readonly healthy = new Map<number, boolean>();
  private readonly skippedUntil = new Map<number, number>();
  private readonly checks: PeriodicTask;
  private turn = 0;

  constructor(
    private readonly ports: readonly number[],
    private readonly host = '127.0.0.1',
  ) {
    for (const port of ports) this.healthy.set(port, true);
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(request, socket as Socket, head),
    );
    this.checks = new PeriodicTask({
      name: 'front-health-checks',
      everyMs: CHECK_EVERY_MS,
      run: () => this.checkAll(),
    }).start();
  }

  listen(port: number, listening: () => void): this {
    this.server.listen(port, listening);
    return this;
  }

  close(): void {
    void this.checks.stop();
    this.server.close();
    this.server.closeAllConnections();
    this.agent.destroy();
  }

  /** The replicas to try, in order: the one the serial hashes to among those in the rotation first. */
  private order(serial: string | undefined): number[] {
    const now = Date.now();
    const usable = this.ports.filter(
      (port) => this.healthy.get(port) === true && (this.skippedUntil.get(port) ?? 0) <= now,
    );
    // None in the rotation: try them all rather than answer nothing.
    const pool = usable.length > 0 ? usable : [...this.ports];
    const first = serial === undefined ? pool[this.turn++ % pool.length] : replicaFor(serial, pool);
    return [first, ...pool.filter((port) => port !== first)].filter((port) => port !== undefined);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const given = request.headers['request-id'];
    const requestId = typeof given === 'string' && USABLE_REQUEST_ID.test(given) ? given : randomUUID();
    const body = await readBody(request);
    if (body === undefined) {
      answerOwn(response, 413, 'PAR-005', 'request body is larger than the front takes', requestId);
      return;
    }
    const tries = this.order(terminalOf(request.url ?? '/', request.headers));
    for (const [n, port] of tries.entries()) {
      const last = n === tries.length - 1;
      const outcome = await this.send(port, request, body, response, last);
      if (outcome === 'answered') return;
      if (outcome === 'cut') {
        answerOwn(
          response,
          502,
          'INT-005',
          'the replica answering went away before its answer was complete: outcome unknown, ask again with the same client_transaction_id',
          requestId,
        );
        return;
      }
    }
    answerOwn(
      response,
      503,
      'INT-002',
      'no replica of the service could be reached: nothing was taken, ask again',
      requestId,
    );
  }

  /**
   * Sends the request to one replica and passes its answer on: 'answered'; 'next' when nothing
   * was taken there (its connection refused, or its own 503 and another replica is left); 'cut'
   * when it went away while answering.
   */
  private send(
    port: number,
    request: IncomingMessage,
    body: Buffer,
    response: ServerResponse,
    last: boolean,
  ): Promise<'answered' | 'next' | 'cut'> {
    return new Promise((settle) => {
      const headers = passedOn(request.headers);
      const sent = forward(
        { host: this.host, port, method: request.method, path: request.url, headers, agent: this.agent },
        (answer) => {
          if (answer.statusCode === 503 && !last) {
            void readBody(answer).then((text) => {
              if (notTaken(text)) {
                settle('next');
                return;
              }
              response.writeHead(503, passedOn(answer.headers));
              response.end(text);
              settle('answered');
            });
            return;
          }
          response.writeHead(answer.statusCode ?? 502, passedOn(answer.headers));
          answer.pipe(response);
          answer.on('error', () => response.destroy());
          answer.on('close', () => settle('answered'));
        },
      );
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (response.headersSent) {
          response.destroy();
          settle('answered');
          return;
        }
        // Nothing reached the replica: refused, or a kept-alive connection it had closed.
        if (error.code === 'ECONNREFUSED' || (sent.reusedSocket && error.code === 'ECONNRESET')) {
          if (error.code === 'ECONNREFUSED') this.skippedUntil.set(port, Date.now() + SKIP_AFTER_REFUSAL_MS);
          settle('next');
          return;
        }
        settle('cut');
      });
      sent.end(body);
    });
  }

  /** A link (WebSocket upgrade): its bytes go to one replica, by the terminal's serial when it has one. */
  private upgrade(request: IncomingMessage, client: Socket, head: Buffer): void {
    client.on('error', () => undefined);
    const tries = this.order(terminalOf(request.url ?? '/', request.headers));
    const attempt = (n: number): void => {
      const port = tries[n];
      if (port === undefined) {
        client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const upstream = connect({ port, host: this.host });
      upstream.once('connect', () => {
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        upstream.write(rawHead(request));
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.once('error', () => {
        if (upstream.connecting || upstream.bytesWritten === 0) {
          this.skippedUntil.set(port, Date.now() + SKIP_AFTER_REFUSAL_MS);
          attempt(n + 1);
        }
      });
    };
    attempt(0);
  }

  private checkAll(): void {
    for (const port of this.ports) {
      const check = get(
        { host: this.host, port, path: '/health', timeout: CHECK_TIMEOUT_MS, agent: false },
        (answer) => {
          answer.resume();
          this.healthy.set(port, answer.statusCode === 200);
        },
      );
      check.on('timeout', () => check.destroy());
      check.on('error', () => this.healthy.set(port, false));
    }
  }
}

function passedOn(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/** The whole body, or undefined past MAX_BODY_BYTES. */
function readBody(from: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    from.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    from.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    from.on('error', () => resolve(undefined));
  });
}

function notTaken(body: Buffer | undefined): boolean {
  try {
    const code = (JSON.parse(body?.toString('utf8') ?? '') as { code?: unknown }).code;
    return typeof code === 'string' && NOT_TAKEN.has(code);
  } catch {
    return false;
  }
}

/** The request line and headers of an upgrade, as they came. */
function rawHead(request: IncomingMessage): string {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (let n = 0; n < request.rawHeaders.length; n += 2)
    lines.push(`${request.rawHeaders[n]}: ${request.rawHeaders[n + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
