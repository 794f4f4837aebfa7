import { isFinalStatus, transition, type LifecycleStatus, type ReadingType } from '@tps/domain';
import type { Span } from '@tps/observability';
import type { FailureReason, TransactionEvent } from '@tps/contracts';
import type { LinkEvent, OperationOrder, TerminalProfile, TransactionOutcome } from '@tps/link';
import { buildEvent } from './event-factory';

/** Where the events of a running transaction go: stored (a run of them in one write), then sent up the link. */
export type EventSink = (links: LinkEvent[]) => Promise<void>;

/**
 * One transaction as the terminal runs it. Every event it emits passes the domain's transition
 * function first, so the terminal can never emit an edge outside the specification's table.
 *
 * The final event is stored before its call returns, and so is the acknowledgement of `acknowledge()`.
 * The events before the end (CARD_PRESENTED, APPROVAL_REQUESTED, the acknowledgement of
 * `acknowledgeLater()`) are stored with the next event, or by `save()` before the terminal waits:
 * they leave the terminal only once stored (the reply and the uplink carry stored events only), so
 * a crash before their write loses nothing anyone saw, and a lifecycle with no wait in it is one
 * write instead of four.
 */
export class RunningTransaction {
  private current: LifecycleStatus | null;
  private attempt: number | undefined;
  private reading: ReadingType | undefined;
  /** What this run of the transaction emitted and stored, in order (the reply to the service). */
  readonly emitted: LinkEvent[] = [];
  /** Emitted, not yet stored: they go with the next write. */
  private unsaved: LinkEvent[] = [];
  private firstWriteDone!: () => void;
  /** Settles once a first run of this transaction is stored: an async operation's reply goes with it. */
  readonly firstRunStored = new Promise<void>((resolve) => (this.firstWriteDone = resolve));

  /**
   * `order.traceparent` is the terminal's own span of the operation (see TerminalRuntime), ended by
   * the final event; every event carries it, so the webhooks it calls for continue the trace.
   */
  constructor(
    readonly order: OperationOrder,
    private readonly span: Span,
    private readonly profile: () => TerminalProfile,
    private readonly sink: EventSink,
    resumeFrom?: TransactionEvent,
  ) {
    this.current = resumeFrom?.status ?? null;
    this.attempt = resumeFrom?.interaction_attempt;
    this.reading = resumeFrom?.reading_type;
  }

  get status(): LifecycleStatus | null {
    return this.current;
  }

  get readingType(): ReadingType | undefined {
    return this.reading;
  }

  /** The merchant's clock: real time shifted by the sandbox offset the service sent. */
  now(): Date {
    return new Date(Date.now() + this.order.clockOffsetMs);
  }

  async acknowledge(): Promise<TransactionEvent> {
    return this.emit('TERMINAL_ACKNOWLEDGED');
  }

  /** The acknowledgement, emitted now and stored with the next write. */
  acknowledgeLater(): TransactionEvent {
    return this.emitLater('TERMINAL_ACKNOWLEDGED');
  }

  /** Emitted now, stored with the next write. */
  cardPresented(readingType: ReadingType): TransactionEvent {
    this.attempt = (this.attempt ?? 0) + 1;
    this.reading = readingType;
    return this.emitLater('CARD_PRESENTED');
  }

  /** Emitted now, stored with the next write. */
  approvalRequested(): TransactionEvent {
    return this.emitLater('APPROVAL_REQUESTED');
  }

  /** Stores what was emitted and not yet stored; the terminal calls it before it waits. */
  async save(): Promise<void> {
    if (this.unsaved.length === 0) return;
    await this.write(this.unsaved);
  }

  /** A final event; `outcome` travels beside it (none for an abort's own cancellation). */
  async finish(
    status: LifecycleStatus,
    outcome: TransactionOutcome | undefined,
    failure?: FailureReason,
  ): Promise<TransactionEvent> {
    return this.emit(status, failure, outcome);
  }

  /** Emits an event and stores it, with those emitted before it that were not stored yet. */
  private async emit(
    status: LifecycleStatus,
    failureReason?: FailureReason,
    outcome?: TransactionOutcome,
  ): Promise<TransactionEvent> {
    const link = this.next(status, failureReason, outcome);
    await this.write([...this.unsaved, link]);
    this.current = link.event.status;
    return link.event;
  }

  /** Stores a run (what was not stored yet, and what comes with it); it then counts as emitted. */
  private async write(run: LinkEvent[]): Promise<void> {
    await this.sink(run);
    this.unsaved = [];
    this.emitted.push(...run);
    this.firstWriteDone();
  }

  private emitLater(status: LifecycleStatus): TransactionEvent {
    const link = this.next(status);
    this.unsaved.push(link);
    this.current = link.event.status;
    return link.event;
  }

  private next(
    status: LifecycleStatus,
    failureReason?: FailureReason,
    outcome?: TransactionOutcome,
  ): LinkEvent {
    const next = transition(this.current, status);
    const event = buildEvent(
      this.profile(),
      this.order,
      this.current,
      next,
      { interactionAttempt: this.attempt, readingType: this.reading, failureReason },
      this.now(),
    );
    const link: LinkEvent = { event };
    if (this.order.traceparent !== undefined) link.traceparent = this.order.traceparent;
    if (outcome !== undefined) link.outcome = outcome;
    if (isFinalStatus(next)) {
      this.span.setAttribute('tps.status', next);
      this.span.end();
    }
    if (next === 'TERMINAL_ACKNOWLEDGED') link.order = this.order;
    return link;
  }
}
