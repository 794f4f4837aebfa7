import { Inject, Injectable } from '@nestjs/common';
import type { CallbackFetch, PostResult, WebhookPost } from '@tps/delivery';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { attemptThroughListeners } from './listen-attempt';

/** The time a listener's answer may take beyond the receiver's own timeout: two trips over the internet. */
const LISTEN_MARGIN_MS = 5000;

/**
 * The way to the merchant's `listen` connections (contract §6.1), for webhook attempts and print
 * callbacks alike: the listener's local answer is the attempt's.
 */
@Injectable()
export class ListenForwarder {
  constructor(@Inject(API_MESSAGES) private readonly messages: ApiMessages) {}

  /** `receiverTimeoutMs`: what a receiver on the internet would be given. */
  send(
    merchantId: string,
    post: WebhookPost,
    receiverTimeoutMs: number,
    shutdown: AbortSignal,
  ): Promise<PostResult> {
    return attemptThroughListeners(
      this.messages,
      merchantId,
      post,
      receiverTimeoutMs + LISTEN_MARGIN_MS,
      shutdown,
    );
  }

  /** A print callback's transport through the merchant's listeners instead of the network. */
  callbackFetch(merchantId: string, receiverTimeoutMs: number, shutdown: AbortSignal): CallbackFetch {
    return async (url, init) => {
      const { outcome } = await this.send(
        merchantId,
        { url, body: init.body, headers: init.headers },
        receiverTimeoutMs,
        shutdown,
      );
      if ('statusCode' in outcome) return { status: outcome.statusCode, body: null };
      throw new Error(outcome.error);
    };
  }
}
