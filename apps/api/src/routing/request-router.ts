import { randomUUID } from 'node:crypto';
import { ContractError } from '@tps/domain';
import type { LinkKind, RoutedReply, RoutedRequestStore } from './routing-ports';

/** What the router hears: a reply stored (by id), and the gaps after which it reads everything again. */
export interface RoutingSignals {
  /** Asks the replica that holds the link to take the request. */
  handed(replica: string, id: string): void;
  onAnswered(handler: (id: string) => void): () => void;
  onGap(handler: () => void): () => void;
}

export interface RouterTimer {
  now(): number;
  /** Resolves after `ms`, or when `wake` is called, whichever comes first. */
  sleep(ms: number, wake: (resume: () => void) => void): Promise<void>;
}

export interface RouterOptions {
  /** A waiter that heard nothing reads the store this often. */
  pollMs: number;
  /** Beyond the request's own reply timeout: room for the other replica's store round trips. */
  graceMs: number;
}

/** Why a request handed over has no reply, for a caller of the request's kind (contract §13). */
const ABANDONED_UNTAKEN: Record<LinkKind, (serial: string) => string> = {
  uplink: (serial) => `terminal ${serial} is offline`,
  control: (serial) => `terminal ${serial} cannot be reached on its local network`,
};

function replyOf(reply: RoutedReply): unknown {
  if ('ok' in reply) return reply.ok;
  throw new ContractError(reply.error.code, reply.error.message, reply.error.param);
}

/**
 * Hands a request for a link held by another replica to that replica through the database, and
 * waits for the reply it stores: woken when told the reply is there, reading it again every
 * `pollMs` (and at once after a gap), up to the request's reply timeout. Past it, or once that
 * replica is dead, the caller gets 504 TER-002, as for a cut link; or 503 TER-001 when the other
 * replica never took the request (then nothing was sent to the terminal).
 */
export class RequestRouter {
  private readonly waiters = new Map<string, () => void>();

  constructor(
    private readonly store: RoutedRequestStore,
    private readonly signals: RoutingSignals,
    private readonly timer: RouterTimer,
    private readonly options: RouterOptions,
  ) {
    signals.onAnswered((id) => this.waiters.get(id)?.());
    signals.onGap(() => {
      for (const wake of [...this.waiters.values()]) wake();
    });
  }

  /** The reply of the link's holder; undefined when no other live replica holds the link. */
  async route(
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<{ reply: unknown } | undefined> {
    const id = randomUUID();
    const replica = await this.store.hand(id, link, key, serial, request, timeoutMs);
    if (replica === undefined) return undefined;
    this.signals.handed(replica, id);
    const deadline = this.timer.now() + timeoutMs + this.options.graceMs;
    // Set when told the reply is there (or of a gap): the next read comes at once.
    let woken = false;
    let resume: (() => void) | undefined;
    this.waiters.set(id, () => {
      woken = true;
      resume?.();
    });
    try {
      for (;;) {
        const reply = await this.store.takeReply(id);
        if (reply !== undefined && reply !== 'holder gone') return { reply: replyOf(reply) };
        const left = deadline - this.timer.now();
        // A holder that died will never answer: its callers hear so now, not at the timeout.
        if (left <= 0 || reply === 'holder gone')
          return { reply: replyOf(await this.abandoned(id, link, serial)) };
        if (!woken) await this.timer.sleep(Math.min(this.options.pollMs, left), (wake) => (resume = wake));
        resume = undefined;
        woken = false;
      }
    } finally {
      this.waiters.delete(id);
    }
  }

  private async abandoned(id: string, link: LinkKind, serial: string): Promise<RoutedReply> {
    const last = await this.store.abandon(id);
    if (last.state === 'answered') return last.reply;
    if (last.state === 'pending') {
      return { error: new ContractError('TER-001', ABANDONED_UNTAKEN[link](serial)).toBody() };
    }
    return {
      error: new ContractError(
        'TER-002',
        `terminal ${serial} did not answer in time through the replica that holds its link; the outcome is unknown`,
      ).toBody(),
    };
  }
}
