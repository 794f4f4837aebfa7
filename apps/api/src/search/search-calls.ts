import { Injectable } from '@nestjs/common';

/**
 * Told of every signed transaction search, online or local, once it is authenticated: the
 * conformance run (contract §17) scores a receiver by the searches it makes. One small interface,
 * so that a cross-process message port can take its place without touching the search routes.
 */
export interface SearchCallHook {
  searched(merchantId: string, clientTransactionId: string | undefined): void;
}

export type SearchCallListener = (clientTransactionId: string | undefined) => void;

/** The in-process hook: listeners per merchant, told synchronously; none, nothing to do. */
@Injectable()
export class SearchCalls implements SearchCallHook {
  private readonly listeners = new Map<string, Set<SearchCallListener>>();

  searched(merchantId: string, clientTransactionId: string | undefined): void {
    for (const listener of this.listeners.get(merchantId) ?? []) listener(clientTransactionId);
  }

  /** Listens to one merchant's searches until the returned function is called. */
  listen(merchantId: string, listener: SearchCallListener): () => void {
    const set = this.listeners.get(merchantId) ?? new Set<SearchCallListener>();
    set.add(listener);
    this.listeners.set(merchantId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(merchantId);
    };
  }
}
