import { Inject, Injectable } from '@nestjs/common';
import { fetch as undiciFetch } from 'undici';
import {
  refusalOf,
  type CallbackFetch,
  type ListenerAnswer,
  type PostResult,
  type WebhookPost,
} from '@tps/delivery';
import { ApiConfig, destinationRules } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { answersSoFar, attemptResultOf, attemptWithCopies, type CopyPorts } from './attempt-with-copies';
import { copiesThroughListeners, type ListenerCopies } from './listen-attempt';
import { ListenerPresence } from './listener-presence';

/** The time a listener's answer may take beyond the receiver's own timeout: two trips over the internet. */
const LISTEN_MARGIN_MS = 5000;

/** A print callback's transport, and what the merchant's listeners answered to their copies. */
export interface CopiedCallback {
  fetch: CallbackFetch;
  /**
   * Once the attempt is over: the listeners' answers so far, and those of the listeners still out
   * once they come (absent when none is); undefined when no copy was sent.
   */
  listeners(): { answered: ListenerAnswer[]; later?: Promise<ListenerAnswer[]> } | undefined;
}

/**
 * Webhook attempts and print callbacks of a merchant that may be listening (contract §6.1): each
 * open `listen` connection gets a copy, and the event's URL still gets the attempt.
 */
@Injectable()
export class ListenForwarder {
  constructor(
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    private readonly presence: ListenerPresence,
    private readonly config: ApiConfig,
  ) {}

  /**
   * One transaction webhook attempt: `direct` makes it to the URL as when nobody listens.
   * `receiverTimeoutMs`: what a receiver on the internet is given.
   */
  send(
    merchantId: string,
    post: WebhookPost,
    receiverTimeoutMs: number,
    shutdown: AbortSignal,
    direct: (post: WebhookPost) => Promise<PostResult>,
  ): Promise<PostResult> {
    return attemptWithCopies({ ...this.ports(receiverTimeoutMs, shutdown), direct }, merchantId, post);
  }

  /**
   * A print callback's transport (§12): the callback goes to its URL as when nobody listens, and
   * each open connection gets a copy; when the policy refuses the URL, the listeners' answer is
   * the callback's (attemptResultOf). No open connection: undefined, the plain transport.
   */
  callback(merchantId: string, receiverTimeoutMs: number, shutdown: AbortSignal): CopiedCallback | undefined {
    const listenerIds = this.presence.listenersOf(merchantId);
    if (listenerIds.length === 0) return undefined;
    const ports = this.ports(receiverTimeoutMs, shutdown);
    let copies: ListenerCopies | undefined;
    const fetch: CallbackFetch = async (url, init) => {
      const usable = (await ports.refusal(url)) === null;
      const sent = ports.copies(merchantId, { url, body: init.body, headers: init.headers }, listenerIds);
      copies = sent;
      // A stop abandons the copies with the callback: nothing then reads them.
      sent.all.catch(() => undefined);
      if (usable) return undiciFetch(url, init);
      const { outcome } = attemptResultOf(null, await sent.all);
      if ('statusCode' in outcome) return { status: outcome.statusCode, body: null };
      throw new Error(outcome.error);
    };
    return {
      fetch,
      // As a webhook attempt's: the callback's record does not wait for a listener (contract §6.1).
      listeners: () => (copies === undefined ? undefined : answersSoFar(copies, listenerIds.length)),
    };
  }

  /** The ports of attemptWithCopies but the attempt to the URL, which each caller makes its own way. */
  private ports(receiverTimeoutMs: number, shutdown: AbortSignal): Omit<CopyPorts, 'direct'> {
    return {
      listenersOf: (merchantId) => this.presence.listenersOf(merchantId),
      refusal: (url) => refusalOf(url, destinationRules(this.config)),
      copies: (merchantId, post, listenerIds) =>
        copiesThroughListeners(
          this.messages,
          merchantId,
          post,
          listenerIds,
          receiverTimeoutMs + LISTEN_MARGIN_MS,
          shutdown,
        ),
    };
  }
}
