import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Unsubscribe } from '@tps/messaging';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';

/** How often an open `listen` connection says so again (contract §6.1). */
export const PRESENCE_REPEAT_MS = 10_000;
/** A listener not heard of for this long is taken as gone (its process died without a word). */
const PRESENCE_LAPSE_MS = 3 * PRESENCE_REPEAT_MS;

/**
 * Which merchants have a `listen` connection open, in any process, as the message port tells it:
 * their webhook attempts go to the listener instead of their URL.
 */
@Injectable()
export class ListenerPresence implements OnModuleDestroy {
  /** Per merchant, each listener and when it was last heard of. */
  private readonly listeners = new Map<string, Map<string, number>>();
  private readonly unsubscribe: Unsubscribe;

  constructor(@Inject(API_MESSAGES) messages: ApiMessages) {
    this.unsubscribe = messages.subscribe('listen.presence', ({ merchantId, listenerId, open }) => {
      const seen = this.listeners.get(merchantId) ?? new Map<string, number>();
      if (open) seen.set(listenerId, Date.now());
      else seen.delete(listenerId);
      if (seen.size === 0) this.listeners.delete(merchantId);
      else this.listeners.set(merchantId, seen);
    });
  }

  isListening(merchantId: string): boolean {
    const seen = this.listeners.get(merchantId);
    if (seen === undefined) return false;
    const now = Date.now();
    for (const [listenerId, at] of seen) if (now - at > PRESENCE_LAPSE_MS) seen.delete(listenerId);
    if (seen.size === 0) this.listeners.delete(merchantId);
    return seen.size > 0;
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
