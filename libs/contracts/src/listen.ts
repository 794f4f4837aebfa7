import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The `listen` WebSocket (contract §6.1): the sandbox sends each webhook attempt of the account
 * over it, and the listener answers with what its local receiver answered.
 */
export const LISTEN_PATH = '/sandbox/listen';

/** One attempt, to POST to the local receiver with these headers and these exact bytes. */
export interface ListenDelivery {
  type: 'delivery';
  attempt_id: string;
  /** The URL the delivery was made for (`events_webhook_url`), for the listener to show. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

const ATTEMPT_ID = Type.String({ minLength: 1, maxLength: 64 });

/** What the listener's receiver answered: a status, or why there was none. */
export const LISTEN_ANSWER = Type.Object(
  {
    type: Type.Literal('answer'),
    attempt_id: ATTEMPT_ID,
    status_code: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    error: Type.Optional(
      Type.Union([
        Type.Literal('timeout'),
        Type.Literal('connection_refused'),
        Type.Literal('connection_reset'),
        Type.Literal('dns_failure'),
        Type.Literal('network_error'),
      ]),
    ),
    latency_ms: Type.Integer({ minimum: 0, maximum: 3_600_000 }),
    excerpt: Type.String({ maxLength: 4096 }),
  },
  { additionalProperties: false },
);

export type ListenAnswer = Static<typeof LISTEN_ANSWER>;

/** The answer a listener sent, or null when the text is not one (status xor error). */
export function parseListenAnswer(text: string): ListenAnswer | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Value.Check(LISTEN_ANSWER, value)) return null;
  return (value.status_code === undefined) !== (value.error === undefined) ? value : null;
}
