import type { CardAction } from '@tps/link';
import type { Timers } from './timers';

/** Why a wait ended: its time passed, an abort came, or the cardholder acted. */
export type Wake = { kind: 'elapsed' } | { kind: 'abort' } | { kind: 'card'; card: CardAction };

/**
 * The things that can interrupt a running transaction from outside: an abort from the point of
 * sale, and the cardholder at the screen. Once the transaction commits to its end (the point
 * of no return, or a local ending), an abort is refused, so it can never cancel too late.
 */
export class Interrupts {
  private aborted = false;
  private committed = false;
  private wake: ((wake: Wake) => void) | undefined;
  private waitsForCard = false;

  constructor(private readonly timers: Timers) {}

  get abortRequested(): boolean {
    return this.aborted;
  }

  /** True while a card wait is open: the sandbox card control has something to act on. */
  get waitingForCard(): boolean {
    return this.waitsForCard;
  }

  /** Waits `ms`, unless an abort (or, if `forCard`, the cardholder) ends the wait first. */
  wait(ms: number, forCard: boolean): Promise<Wake> {
    if (this.aborted) return Promise.resolve({ kind: 'abort' });
    return new Promise((resolve) => {
      let cancelTimer = (): void => undefined;
      const end = (wake: Wake): void => {
        cancelTimer();
        this.wake = undefined;
        this.waitsForCard = false;
        resolve(wake);
      };
      cancelTimer = this.timers.after(ms, () => end({ kind: 'elapsed' }));
      this.wake = end;
      this.waitsForCard = forCard;
    });
  }

  /** The transaction is now bound to end as it decided; aborts from here on are refused. */
  commit(): void {
    this.committed = true;
  }

  /** Asks the transaction to cancel; false when it has already committed to its end. */
  requestAbort(): boolean {
    if (this.committed) return false;
    this.aborted = true;
    this.wake?.({ kind: 'abort' });
    return true;
  }

  /** Hands a card action to an open card wait; false when nothing waits for a card. */
  card(action: CardAction): boolean {
    if (!this.waitsForCard || this.wake === undefined) return false;
    this.wake({ kind: 'card', card: action });
    return true;
  }
}
