import type { ListenerAnswer, PostResult, WebhookPost } from '@tps/delivery';
import type { ListenerCopies } from './listen-attempt';

/** What an attempt made while the merchant listens needs (contract §6.1), as ports. */
export interface CopyPorts {
  /** The merchant's open `listen` connections, in any process. */
  listenersOf(merchantId: string): readonly string[];
  /** Why the address policy refuses this URL, or null when it may receive the attempt. */
  refusal(url: string): Promise<string | null>;
  /** The attempt to the event's URL, as it is made when nobody listens. */
  direct(post: WebhookPost): Promise<PostResult>;
  /** One copy to each of these connections; one answer each, in the order they came. */
  copies(merchantId: string, post: WebhookPost, listenerIds: readonly string[]): ListenerCopies;
}

/** The outcome of an attempt with no URL to take it and no listener open: retried, like a refused connection. */
export const NOBODY_TO_SEND_TO: PostResult = {
  outcome: { error: 'connection_refused' },
  latencyMs: 0,
  answerExcerpt: 'no webhook URL, and no listen connection open',
};

const is2xx = (result: PostResult): boolean =>
  'statusCode' in result.outcome && result.outcome.statusCode >= 200 && result.outcome.statusCode < 300;

const answerOf = ({ outcome, latencyMs }: PostResult): ListenerAnswer => ({ outcome, latencyMs });

/** The answers to `sent` copies come so far, and those still out once they come (absent when none is). */
export function answersSoFar(
  copies: ListenerCopies,
  sent: number,
): { answered: ListenerAnswer[]; later?: Promise<ListenerAnswer[]> } {
  const answered = copies.answered.map(answerOf);
  if (answered.length === sent) return { answered };
  const later = copies.all.then((all) => all.slice(answered.length).map(answerOf));
  // Read once the attempt is recorded, or never when the service stops first.
  later.catch(() => undefined);
  return { answered, later };
}

/**
 * Which answer is the attempt's (contract §6.1): the URL's when the event has one the policy
 * allows (`direct`), the listeners' copies being recorded beside it; otherwise the first 2xx of
 * the listeners, else the first of them to answer.
 */
export function attemptResultOf(direct: PostResult | null, copies: readonly PostResult[]): PostResult {
  const listeners = copies.map(answerOf);
  if (direct !== null) return { ...direct, listeners };
  const chosen = copies.find(is2xx) ?? copies[0];
  return chosen === undefined ? NOBODY_TO_SEND_TO : { ...chosen, listeners };
}

/**
 * One webhook attempt of a merchant that may be listening (contract §6.1): `listen` forwards
 * copies and never takes the attempt away from the event's URL. Nobody listening is exactly the
 * attempt to the URL. Whether the URL is usable is the policy's decision, never a failed
 * connection's, so a receiver that is down is retried as §6 says, whatever the listeners answer.
 * With a usable URL the attempt ends with the URL's answer: the listeners that have not answered
 * by then come after it (`laterListeners`), so a hanging listener never delays the record.
 */
export async function attemptWithCopies(
  ports: CopyPorts,
  merchantId: string,
  post: WebhookPost,
): Promise<PostResult> {
  const listenerIds = ports.listenersOf(merchantId);
  if (listenerIds.length === 0) return post.url === '' ? NOBODY_TO_SEND_TO : ports.direct(post);
  const usable = post.url !== '' && (await ports.refusal(post.url)) === null;
  const copies = ports.copies(merchantId, post, listenerIds);
  if (!usable) return attemptResultOf(null, await copies.all);
  // Read only after the URL's answer, or at a stop, which abandons the copies with the attempt.
  copies.all.catch(() => undefined);
  const direct = await ports.direct(post);
  const { answered, later } = answersSoFar(copies, listenerIds.length);
  return { ...direct, listeners: answered, ...(later === undefined ? {} : { laterListeners: later }) };
}
