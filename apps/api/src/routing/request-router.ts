import { randomUUID } from 'node:crypto';
import { ContractError } from '@tps/domain';
import type { LinkKind, RoutedReply, RoutedRequestStore } from './routing-ports';
import { TakenReplies } from './taken-replies';

/**
 * What the router hears: a reply stored (by id, the reply itself with it when small), and the gaps
 * after which it reads everything again. (The holder is told of a request by the statement that
 * stores it.)
 */
export interface RoutingSignals {
  /** `reply`: what the holder stored, when the word carries it (then the waiter reads nothing). */
  onAnswered(handler: (id: string, reply?: RoutedReply) => void): () => void;
  onGap(handler: () => void): () => void;
}

export interface RouterTimer {
  now(): number;
  /** Resolves after `ms`, or when `wake` is called, whichever comes first. */
  sleep(ms: number, wake: (resume: () => void) => void): Promise<void>;
}

export interface RouterOptions {
  /**
   * A waiter that heard nothing for this long reads the store: the fallback for a word that was
   * lost (a NOTIFY that failed), and how soon it learns that the holder died.
   */
  pollMs: number;
  /** Beyond the request's own reply timeout: room for the other replica's store round trips. */
  graceMs: number;
  /** Rows of replies that came with their word are removed together, at most this long after. */
  forgetMs: number;
}

/** Why a request handed over has no reply, for a caller of the request's kind (contract §13). */
const ABANDONED_UNTAKEN: Record<LinkKind, (serial: string) => string> = {
  uplink: (serial) => `terminal ${serial} is offline`,
  control: (serial) => `terminal ${serial} cannot be reached on its local network`,
};

/** Told to read the store: a word without the reply, or a gap. */
const READ = Symbol('read');

function replyOf(reply: RoutedReply): unknown {
  if ('ok' in reply) return reply.ok;
  throw new ContractError(reply.error.code, reply.error.message, reply.error.param);
}

/**
 * Hands a request for a link held by another replica to that replica through the database, and
 * waits for the reply it stores. The holder's word (NOTIFY) carries the stored reply when it is
 * small: then nothing is read, and the request's row is removed later with others. A word without
 * it, or a gap, makes the waiter read the store at once; a waiter that heard nothing reads it every
 * `pollMs`, up to the request's reply timeout. Past it, or once that replica is dead, the caller
 * gets 504 TER-002, as for a cut link; or 503 TER-001 when the other replica never took the request
 * (then nothing was sent to the terminal).
 */
export class RequestRouter {
  private readonly waiters = new Map<string, (reply?: RoutedReply) => void>();
  private readonly taken: TakenReplies;
  /** Set when the replica's drain is out of time: nobody waits any longer. */
  private givenUp = false;

  constructor(
    private readonly store: RoutedRequestStore,
    signals: RoutingSignals,
    private readonly timer: RouterTimer,
    private readonly options: RouterOptions,
    onError: (error: unknown) => void = () => undefined,
    private readonly onHanded: (link: LinkKind) => void = () => undefined,
  ) {
    this.taken = new TakenReplies(store, timer, options.forgetMs, onError);
    signals.onAnswered((id, reply) => this.waiters.get(id)?.(reply));
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
    // What the holder's word says, once heard; listened for before the request is stored, so
    // that a word which comes back before the insert's own answer is not missed.
    let heard: RoutedReply | typeof READ | undefined;
    let resume: (() => void) | undefined;
    this.waiters.set(id, (reply) => {
      heard = reply ?? (heard === undefined ? READ : heard);
      resume?.();
    });
    try {
      const replica = await this.store.hand(id, link, key, serial, request, timeoutMs);
      if (replica === undefined) return undefined;
      this.onHanded(link);
      const deadline = this.timer.now() + timeoutMs + this.options.graceMs;
      for (;;) {
        const left = deadline - this.timer.now();
        if (heard === undefined && left > 0)
          await this.timer.sleep(Math.min(this.options.pollMs, left), (wake) => (resume = wake));
        const told = heard;
        heard = undefined;
        resume = undefined;
        if (told !== undefined && told !== READ) {
          this.taken.forget(id);
          return { reply: replyOf(told) };
        }
        const reply = await this.store.takeReply(id);
        if (reply !== undefined && reply !== 'holder gone') return { reply: replyOf(reply) };
        // A holder that died will never answer: its callers hear so now, not at the timeout.
        if (deadline - this.timer.now() <= 0 || reply === 'holder gone' || this.givenUp)
          return { reply: replyOf(await this.abandoned(id, link, serial)) };
      }
    } finally {
      this.waiters.delete(id);
    }
  }

  /**
   * The replica's drain is out of time: every caller still waiting reads the store once more and
   * is answered as the request stands (its reply; 503 TER-001 if the holder never took it; else
   * 504 TER-002, outcome unknown).
   */
  giveUp(): void {
    this.givenUp = true;
    for (const wake of [...this.waiters.values()]) wake();
  }

  /** Removes the rows still to be removed (the replica is stopping). */
  stop(): Promise<void> {
    return this.taken.stop();
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
