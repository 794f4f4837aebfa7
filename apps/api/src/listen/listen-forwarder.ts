import { Inject, Injectable } from '@nestjs/common';
import type { PostResult, WebhookPost } from '@tps/delivery';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { attemptThroughListeners } from './listen-attempt';

/** The dispatcher's way to the merchant's `listen` connections (contract §6.1). */
@Injectable()
export class ListenForwarder {
  constructor(@Inject(API_MESSAGES) private readonly messages: ApiMessages) {}

  send(merchantId: string, post: WebhookPost, timeoutMs: number, shutdown: AbortSignal): Promise<PostResult> {
    return attemptThroughListeners(this.messages, merchantId, post, timeoutMs, shutdown);
  }
}
