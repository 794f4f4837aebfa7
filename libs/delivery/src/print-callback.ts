import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { PrintCallbackRecord, PrintWebhookPayload } from '@tps/contracts';
import { guardedConnector, type DestinationRules } from './destination-policy';
import { AttemptAbandoned } from './webhook-post';
import { signWebhook } from './webhook-signature';

/** The part of `fetch` the sender needs, so that tests can stand in for the network. */
export type CallbackFetch = (
  url: string,
  init: {
    method: 'POST';
    headers: Record<string, string>;
    body: string;
    redirect: 'manual';
    signal: AbortSignal;
    dispatcher?: Dispatcher;
  },
) => Promise<{ status: number; body?: { cancel(): Promise<void> } | null }>;

export interface PrintCallbackOptions {
  /** The specification's 15 s; tests shorten it. */
  timeoutMs: number;
  fetch?: CallbackFetch;
  now?: () => number;
  /** Makes the signal that ends the attempt after `timeoutMs`; tests fire it by hand. */
  timeoutSignal?: (timeoutMs: number) => AbortSignal;
  /**
   * The profile's rules, applied again when the callback connects (contract §5): a name that
   * resolves to a forbidden address then is refused, and so is a forbidden address.
   */
  destinations?: DestinationRules;
  /**
   * The merchant's webhook secrets in force (two while a rotated one overlaps), when it has one:
   * the callback then carries the Standard Webhooks headers, as transaction webhooks do, with the
   * printJobId as `webhook-id`.
   */
  signingSecrets?: readonly string[];
  /** Aborts the attempt without an outcome: the service is stopping. */
  shutdown?: AbortSignal;
  /** Sent as the `traceparent` header: the callback's span in the print request's trace. */
  traceparent?: string;
}

export const PRINT_CALLBACK_TIMEOUT_MS = 15_000;

function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  // Named as a refused transaction webhook attempt is: nothing was sent.
  if (cause?.code === 'EADDRNOTPUBLIC') return 'destination_refused';
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

function headersOf(
  payload: PrintWebhookPayload,
  body: string,
  secrets: readonly string[] | undefined,
  at: number,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secrets === undefined || secrets.length === 0) return headers;
  // One callback per job, so its id names the message as well as the job the receiver dedupes by.
  return { ...headers, ...signWebhook(secrets, payload.printJobId, Math.floor(at / 1000), body) };
}

/**
 * The print webhook (specification, Print webhook; contract §6): exactly one POST of the payload,
 * with a timeout, and no retry whatever happens: not on a timeout, not on any status. Redirects
 * are not followed. The outcome says what happened, for the job's record; it throws only
 * AttemptAbandoned, when `shutdown` cut the attempt (which then has no outcome to record).
 */
export async function sendPrintCallback(
  url: string,
  payload: PrintWebhookPayload,
  options: PrintCallbackOptions,
): Promise<PrintCallbackRecord> {
  if (options.shutdown?.aborted) throw new AttemptAbandoned();
  // undici's own fetch, since the guarded dispatcher below is an undici Agent.
  const send: CallbackFetch = options.fetch ?? undiciFetch;
  const now = options.now ?? Date.now;
  const started = now();
  const attemptedAt = new Date(started).toISOString();
  const timeout = (options.timeoutSignal ?? AbortSignal.timeout)(options.timeoutMs);
  const signal = options.shutdown === undefined ? timeout : AbortSignal.any([timeout, options.shutdown]);
  const body = JSON.stringify(payload);
  // One connection for one attempt: the pool lives as long as the callback.
  const guarded =
    options.destinations === undefined
      ? undefined
      : new Agent({ connect: guardedConnector(options.destinations) });
  try {
    const response = await send(url, {
      method: 'POST',
      headers: {
        ...headersOf(payload, body, options.signingSecrets, started),
        ...(options.traceparent === undefined ? {} : { traceparent: options.traceparent }),
      },
      body,
      redirect: 'manual',
      signal,
      ...(guarded === undefined ? {} : { dispatcher: guarded }),
    });
    // The answer's body is of no interest; release the connection.
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return {
      attemptedAt,
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      latencyMs: now() - started,
    };
  } catch (error) {
    if (options.shutdown?.aborted) throw new AttemptAbandoned();
    return {
      attemptedAt,
      statusCode: null,
      error: describeFailure(error, timeout.aborted),
      latencyMs: now() - started,
    };
  } finally {
    await guarded?.destroy().catch(() => undefined);
  }
}

/** The payload of a finished job: `errorCode` and `errorMessage` only when it FAILED. */
export function printWebhookPayload(job: {
  printJobId: string;
  status: 'COMPLETED' | 'FAILED';
  externalReference: string;
  errorCode?: string;
  errorMessage?: string;
}): PrintWebhookPayload {
  const payload: PrintWebhookPayload = {
    printJobId: job.printJobId,
    status: job.status,
    externalReference: job.externalReference,
  };
  if (job.status === 'FAILED') {
    if (job.errorCode !== undefined) payload.errorCode = job.errorCode;
    if (job.errorMessage !== undefined) payload.errorMessage = job.errorMessage;
  }
  return payload;
}
