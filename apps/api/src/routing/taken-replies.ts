import type { RoutedRequestStore } from './routing-ports';
import type { RouterTimer } from './request-router';

/**
 * The rows of routed requests whose reply came with the holder's word: nobody reads them again, so
 * they are removed together, one statement per `everyMs` at most rather than one per request. A
 * removal that fails is left to the sweep of rows past their timeout (contract, "Several
 * replicas"), as the rows of a caller that died are.
 */
export class TakenReplies {
  private ids: string[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly store: Pick<RoutedRequestStore, 'forget'>,
    private readonly timer: Pick<RouterTimer, 'sleep'>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  forget(id: string): void {
    // Once stopped (the replica is leaving, its pool closing), the sweep removes what is left.
    if (this.stopped) return;
    this.ids.push(id);
    if (this.scheduled) return;
    this.scheduled = true;
    void this.timer.sleep(this.everyMs, () => undefined).then(() => this.flush());
  }

  /** Removes what is queued, and queues nothing more. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  /** Removes what is queued now. */
  async flush(): Promise<void> {
    this.scheduled = false;
    const ids = this.ids;
    this.ids = [];
    if (ids.length === 0) return;
    await this.store.forget(ids).catch(this.onError);
  }
}
