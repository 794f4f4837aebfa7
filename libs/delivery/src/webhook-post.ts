import { performance } from 'node:perf_hooks';
import { request, type Dispatcher as HttpDispatcher } from 'undici';
import type { AttemptErrorKind, AttemptOutcome } from './retry-policy';

/** How much of a receiver's answer is kept with the attempt, for the merchant to read. */
export const ANSWER_EXCERPT_BYTES = 1024;

export interface WebhookPost {
  url: string;
  /** The exact bytes to send (and to sign). */
  body: string;
  headers: Record<string, string>;
}

export interface PostResult {
  outcome: AttemptOutcome;
  latencyMs: number;
  /** The first 1 KB of the answer's body; empty when there was none. */
  answerExcerpt: string;
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

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_EXCERPT_BYTES) break;
    }
  } catch {
    // The status decided the outcome already; a body cut short only shortens the excerpt.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_EXCERPT_BYTES).toString('utf8');
}

/**
 * One attempt: a POST that follows no redirect, bounded by `timeoutMs` from the first byte sent
 * to the excerpt read. Transport failures come back as outcomes, never as exceptions.
 */
export async function postWebhook(post: WebhookPost, options: PostOptions): Promise<PostResult> {
  if (options.shutdown?.aborted) throw new AttemptAbandoned();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onShutdown = (): void => controller.abort();
  options.shutdown?.addEventListener('abort', onShutdown);
  const started = performance.now();
  const latency = (): number => Math.round(performance.now() - started);
  try {
    const answer = await request(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...post.headers },
      body: post.body,
      signal: controller.signal,
      maxRedirections: 0,
      dispatcher: options.dispatcher,
    });
    const answerExcerpt = await readExcerpt(answer.body);
    return { outcome: { statusCode: answer.statusCode }, latencyMs: latency(), answerExcerpt };
  } catch (error) {
    if (options.shutdown?.aborted) throw new AttemptAbandoned();
    const kind = timedOut ? 'timeout' : errorKind(error);
    return { outcome: { error: kind }, latencyMs: latency(), answerExcerpt: '' };
  } finally {
    clearTimeout(timer);
    options.shutdown?.removeEventListener('abort', onShutdown);
  }
}
