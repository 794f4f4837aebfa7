import type { ApiTopics } from '../messages/api-messages';

/** How often an open `listen` connection says so again (contract §6.1). */
export const PRESENCE_REPEAT_MS = 10_000;
/** A listener not heard of for this long is taken as gone (its process died without a word). */
const PRESENCE_LAPSE_MS = 3 * PRESENCE_REPEAT_MS;

/** Which merchants have a `listen` connection open, from what the listeners' processes say. */
export class PresenceBook {
  /** Per merchant, each listener and when it was last heard of. */
  private readonly listeners = new Map<string, Map<string, number>>();

  heard({ merchantId, listenerId, open }: ApiTopics['listen.presence'], now: number): void {
    const seen = this.listeners.get(merchantId) ?? new Map<string, number>();
    if (open) seen.set(listenerId, now);
    else seen.delete(listenerId);
    if (seen.size === 0) this.listeners.delete(merchantId);
    else this.listeners.set(merchantId, seen);
  }

  /** The merchant's listeners heard of lately: each gets a copy of every attempt (contract §6.1). */
  listenersOf(merchantId: string, now: number): string[] {
    const seen = this.listeners.get(merchantId);
    if (seen === undefined) return [];
    for (const [listenerId, at] of seen) if (now - at > PRESENCE_LAPSE_MS) seen.delete(listenerId);
    if (seen.size === 0) this.listeners.delete(merchantId);
    return [...seen.keys()];
  }

  isListening(merchantId: string, now: number): boolean {
    return this.listenersOf(merchantId, now).length > 0;
  }
}
