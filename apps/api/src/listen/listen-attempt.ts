import { randomUUID } from 'node:crypto';
import { AttemptAbandoned, type PostResult, type WebhookPost } from '@tps/delivery';
import type { ApiMessages } from '../messages/api-messages';

/** The copies of one attempt: the answers come so far (growing), and all of them. */
export interface ListenerCopies {
  readonly answered: readonly PostResult[];
  /** One answer per connection once the last came or timed out; rejects with AttemptAbandoned at a stop. */
  readonly all: Promise<PostResult[]>;
}

/**
 * Sends one copy of a webhook attempt to each of the merchant's `listen` connections (contract
 * §6.1), wherever they are held, and gathers one answer per connection: in the order they came,
 * then a timeout for each connection that gave none within `timeoutMs`, as a URL that never
 * answers would. Nothing stays subscribed once it resolves.
 */
export function copiesThroughListeners(
  messages: ApiMessages,
  merchantId: string,
  post: WebhookPost,
  listenerIds: readonly string[],
  timeoutMs: number,
  shutdown: AbortSignal,
): ListenerCopies {
  const answers: PostResult[] = [];
  if (shutdown.aborted) return { answered: answers, all: Promise.reject(new AttemptAbandoned()) };
  const attemptId = randomUUID();
  const waiting = new Set(listenerIds);
  const all = new Promise<PostResult[]>((resolve, reject) => {
    const end = (): void => {
      clearTimeout(timer);
      stop();
      shutdown.removeEventListener('abort', onShutdown);
    };
    const stop = messages.subscribe(
      'listen.answer',
      (answer) => {
        if (answer.attemptId !== attemptId || !waiting.delete(answer.listenerId)) return;
        answers.push(answer.result);
        if (waiting.size > 0) return;
        end();
        resolve(answers);
      },
      'cluster',
    );
    const timer = setTimeout(() => {
      end();
      const silent = [...waiting].map((): PostResult => ({
        outcome: { error: 'timeout' },
        latencyMs: timeoutMs,
        answerExcerpt: '',
      }));
      resolve([...answers, ...silent]);
    }, timeoutMs);
    const onShutdown = (): void => {
      end();
      reject(new AttemptAbandoned());
    };
    shutdown.addEventListener('abort', onShutdown);
    messages.publish('listen.attempt', { attemptId, merchantId, post });
  });
  return { answered: answers, all };
}
