import { performance } from 'node:perf_hooks';
import { getGlobalDispatcher, type Dispatcher as HttpDispatcher } from 'undici';
import type { AttemptErrorKind, AttemptOutcome } from './retry-policy';

/** How much of a receiver's answer is kept with the attempt, for the merchant to read. */
export const ANSWER_EXCERPT_BYTES = 1024;

export interface WebhookPost {
  url: string;
  /** The exact bytes to send (and to sign). */
  body: string;
  headers: Record<string, string>;
  /** The trace the attempt continues; the sender puts its own span's `traceparent` in the headers. */
  traceparent?: string;
}

export interface PostResult {
  outcome: AttemptOutcome;
  latencyMs: number;
  /** The first 1 KB of the answer's body; empty when there was none. */
  answerExcerpt: string;
  /**
   * What each of the merchant's `listen` connections answered to its copy of the attempt
   * (contract §6.1), in the order they answered; absent when none was open.
   */
  listeners?: readonly ListenerAnswer[];
  /**
   * The answers of the listeners that had not answered when the URL did: the attempt is recorded
   * at the URL's answer, and these beside it once they come (contract §6.1: a listener never
   * delays the attempt's record). Rejects with AttemptAbandoned when the service stops first.
   */
  laterListeners?: Promise<readonly ListenerAnswer[]>;
}

/** One `listen` connection's local answer to its copy of an attempt (contract §6.1). */
export interface ListenerAnswer {
  outcome: AttemptOutcome;
  latencyMs: number;
}

/**
 * Records the answers of the listeners slower than the URL once they came (contract §6.1), with
 * `record`; nothing when the service stopped first (the copies are abandoned with it).
 */
export async function recordLaterListeners(
  later: Promise<readonly ListenerAnswer[]>,
  record: (answers: readonly ListenerAnswer[]) => Promise<unknown>,
): Promise<void> {
  let answers: readonly ListenerAnswer[];
  try {
    answers = await later;
  } catch (error) {
    if (error instanceof AttemptAbandoned) return;
    throw error;
  }
  await record(answers);
}

export interface PostOptions {
  timeoutMs: number;
  /** Aborts the attempt without an outcome: the service is stopping. */
  shutdown?: AbortSignal;
  /** The connection pool to use, e.g. one whose lookup refuses non-public addresses. */
  dispatcher?: HttpDispatcher;
}

/** Thrown when `shutdown` ended the attempt: it has no outcome and must not be recorded. */
export class AttemptAbandoned extends Error {
  constructor() {
    super('attempt abandoned: the service is stopping');
    this.name = 'AttemptAbandoned';
  }
}

const ERROR_CODES: Record<string, AttemptErrorKind> = {
  // Set by guardedLookup (destination-policy.ts) when a name resolves to a forbidden address.
  EADDRNOTPUBLIC: 'destination_refused',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  ENOTFOUND: 'dns_failure',
  EAI_AGAIN: 'dns_failure',
  EAI_NONAME: 'dns_failure',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (codes.length > 5) break;
  }
  return codes;
}

/** The kind of a transport error; anything unknown is a generic, retried network error. */
export function errorKind(error: unknown): AttemptErrorKind {
  for (const code of errorCodes(error)) {
    const kind = ERROR_CODES[code];
    if (kind !== undefined) return kind;
  }
  return 'network_error';
}

/** The statuses undici passes on before the final answer (1xx) are not an answer yet. */
const FIRST_FINAL_STATUS = 200;

/**
 * One attempt: a POST that follows no redirect, bounded by `timeoutMs` from the first byte sent
 * to the excerpt read. Transport failures come back as outcomes, never as exceptions.
 *
 * It talks to undici's dispatcher through a handler rather than `request()`: the answer's body is
 * at most an excerpt, and `request()`'s readable stream, its async iterator and its abort signal
 * cost more than half of an attempt's CPU (about 90 against 35 µs per POST on loopback).
 */
export function postWebhook(post: WebhookPost, options: PostOptions): Promise<PostResult> {
  if (options.shutdown?.aborted) return Promise.reject(new AttemptAbandoned());
  return new Promise<PostResult>((resolve, reject) => {
    const { shutdown } = options;
    const started = performance.now();
    const chunks: Buffer[] = [];
    let excerptBytes = 0;
    let statusCode: number | undefined;
    let timedOut = false;
    let settled = false;
    let abort: ((reason: Error) => void) | undefined;
    let cutBy: Error | undefined;

    const settle = (result: PostResult | AttemptAbandoned): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      shutdown?.removeEventListener('abort', onShutdown);
      if (result instanceof AttemptAbandoned) reject(result);
      else resolve(result);
    };
    const latencyMs = (): number => Math.round(performance.now() - started);
    // Once the status has come, it is the outcome: a body cut short only shortens the excerpt.
    const answered = (status: number): void =>
      settle({
        outcome: { statusCode: status },
        latencyMs: latencyMs(),
        answerExcerpt: Buffer.concat(chunks).subarray(0, ANSWER_EXCERPT_BYTES).toString('utf8'),
      });
    const failed = (error: unknown): void => {
      if (statusCode !== undefined) answered(statusCode);
      else if (shutdown?.aborted) settle(new AttemptAbandoned());
      else
        settle({
          outcome: { error: timedOut ? 'timeout' : errorKind(error) },
          latencyMs: latencyMs(),
          answerExcerpt: '',
        });
    };

    const cut = (reason: Error): void => {
      cutBy = reason;
      if (abort !== undefined) {
        abort(reason);
        return;
      }
      // undici hands out the abort only once a socket is connected: a connect that hangs would
      // hold the attempt until the connector's own timeout. It ends now; onConnect aborts later.
      failed(reason);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      cut(new Error('webhook attempt timed out'));
    }, options.timeoutMs);
    const onShutdown = (): void => cut(new AttemptAbandoned());
    shutdown?.addEventListener('abort', onShutdown);

    let target: URL;
    try {
      target = new URL(post.url);
    } catch (error) {
      failed(error);
      return;
    }
    (options.dispatcher ?? getGlobalDispatcher()).dispatch(
      {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...post.headers },
        body: post.body,
      },
      {
        onConnect(abortRequest) {
          abort = abortRequest;
          if (cutBy !== undefined) abortRequest(cutBy);
        },
        onHeaders(status) {
          if (status >= FIRST_FINAL_STATUS) statusCode = status;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          excerptBytes += chunk.length;
          if (excerptBytes >= ANSWER_EXCERPT_BYTES && statusCode !== undefined) {
            answered(statusCode);
            cut(new Error('webhook answer excerpt read'));
          }
          return true;
        },
        onComplete() {
          if (statusCode !== undefined) answered(statusCode);
          else failed(new Error('webhook answer ended without a status'));
        },
        onError: failed,
      },
    );
  });
}
