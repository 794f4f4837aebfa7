import { Injectable } from '@nestjs/common';
import type { TerminalEntity } from './terminal.entity';
import type { TerminalOwner } from './terminal-owner';

interface Prefetched {
  serial: string;
  /** Null: the merchant has no terminal of that serial. */
  terminal: TerminalEntity | null;
}

/**
 * The terminal a request names, read by authentication in the same statement as its merchant, so
 * that the request's own lookup costs no second trip to the database. Held by the merchant row
 * of that one request (a fresh object per request), so it lives no longer than the request.
 */
@Injectable()
export class PrefetchedTerminals {
  private readonly byMerchant = new WeakMap<TerminalOwner, Prefetched>();

  remember(merchant: TerminalOwner, serial: string, terminal: TerminalEntity | null): void {
    this.byMerchant.set(merchant, { serial, terminal });
  }

  /** What was read for this serial, once; undefined when nothing was (the caller reads it). */
  take(merchant: TerminalOwner, serial: string): TerminalEntity | null | undefined {
    const prefetched = this.byMerchant.get(merchant);
    if (prefetched === undefined || prefetched.serial !== serial) return undefined;
    this.byMerchant.delete(merchant);
    return prefetched.terminal;
  }
}
