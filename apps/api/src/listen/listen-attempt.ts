import { randomUUID } from 'node:crypto';
import { AttemptAbandoned, type PostResult, type WebhookPost } from '@tps/delivery';
import type { ApiMessages } from '../messages/api-messages';

/**
 * Makes a webhook attempt through the merchant's `listen` connections (contract §6.1), wherever
 * they are held: the first answer a listener reports is the attempt's outcome, and no answer in
 * `timeoutMs` is a timeout, as a URL that never answers would be.
 */
export function attemptThroughListeners(
  messages: ApiMessages,
  merchantId: string,
  post: WebhookPost,
  timeoutMs: number,
  shutdown: AbortSignal,
): Promise<PostResult> {
  if (shutdown.aborted) return Promise.reject(new AttemptAbandoned());
  const attemptId = randomUUID();
  return new Promise<PostResult>((resolve, reject) => {
    const end = (): void => {
      clearTimeout(timer);
      stop();
      shutdown.removeEventListener('abort', onShutdown);
    };
    const stop = messages.subscribe(
      'listen.answer',
      (answer) => {
        if (answer.attemptId !== attemptId) return;
        end();
        resolve(answer.result);
      },
      'cluster',
    );
    const timer = setTimeout(() => {
      end();
      resolve({ outcome: { error: 'timeout' }, latencyMs: timeoutMs, answerExcerpt: '' });
    }, timeoutMs);
    const onShutdown = (): void => {
      end();
      reject(new AttemptAbandoned());
    };
    shutdown.addEventListener('abort', onShutdown);
    messages.publish('listen.attempt', { attemptId, merchantId, post });
  });
}
