import { transition, type LifecycleStatus, type ReadingType } from '@tps/domain';
import type { FailureReason, TransactionEvent } from '@tps/contracts';
import type { LinkEvent, OperationOrder, TerminalProfile, TransactionOutcome } from '@tps/link';
import { buildEvent } from './event-factory';

/** Where the events of a running transaction go: stored, then sent up the link. */
export type EventSink = (link: LinkEvent) => Promise<void>;

/**
 * One transaction as the terminal runs it. Every event it emits passes the domain's transition
 * function first, so the terminal can never emit an edge outside the specification's table.
 */
export class RunningTransaction {
  private current: LifecycleStatus | null;
  private attempt: number | undefined;
  private reading: ReadingType | undefined;
  /** What this run of the transaction emitted and stored, in order (the reply to the service). */
  readonly emitted: LinkEvent[] = [];

  constructor(
    readonly order: OperationOrder,
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

  async cardPresented(readingType: ReadingType): Promise<TransactionEvent> {
    this.attempt = (this.attempt ?? 0) + 1;
    this.reading = readingType;
    return this.emit('CARD_PRESENTED');
  }

  async approvalRequested(): Promise<TransactionEvent> {
    return this.emit('APPROVAL_REQUESTED');
  }

  /** A final event; `outcome` travels beside it (none for an abort's own cancellation). */
  async finish(
    status: LifecycleStatus,
    outcome: TransactionOutcome | undefined,
    failure?: FailureReason,
  ): Promise<TransactionEvent> {
    return this.emit(status, failure, outcome);
  }

  private async emit(
    status: LifecycleStatus,
    failureReason?: FailureReason,
    outcome?: TransactionOutcome,
  ): Promise<TransactionEvent> {
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
    if (outcome !== undefined) link.outcome = outcome;
    if (next === 'TERMINAL_ACKNOWLEDGED') link.order = this.order;
    await this.sink(link);
    this.emitted.push(link);
    this.current = next;
    return event;
  }
}
