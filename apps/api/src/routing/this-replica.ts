import { PeriodicTask } from '@tps/background';
import type { ReplicaRows } from './routing-ports';

/** A replica not heard from for this many heartbeats is dead: it holds no link any more. */
const HEARTBEATS_MISSED = 3;

/**
 * This API process among the replicas on one database: its id, an epoch that grows each time a
 * process starts under that id (what an older process of the same id stored is not its own), and
 * a heartbeat, one write a second whatever the number of links.
 */
export class ThisReplica {
  private current = 0;
  private heartbeat: PeriodicTask | undefined;
  /** When a heartbeat of this replica last failed (the store away), on the real clock. */
  private lastFailedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly rows: ReplicaRows,
    readonly id: string,
    private readonly heartbeatMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  get epoch(): number {
    return this.current;
  }

  get lapseMs(): number {
    return HEARTBEATS_MISSED * this.heartbeatMs;
  }

  async join(): Promise<void> {
    this.current = await this.rows.join(this.id);
    this.heartbeat = new PeriodicTask({
      name: 'replica-heartbeat',
      everyMs: this.heartbeatMs,
      run: () => this.rows.beat(this.id, this.current),
      failed: (_name, error) => {
        this.lastFailedAt = Date.now();
        this.onError(error);
      },
    }).start();
  }

  /**
   * Whether this replica could not reach the store within the last lapse. Then every replica's
   * heartbeat may have lapsed with it, though none died: until they have beaten again, a link
   * held by none looks the same as a link whose holder could not say it is alive.
   */
  recentlyCutOff(now = Date.now()): boolean {
    return now - this.lastFailedAt < this.lapseMs;
  }

  /** Leaves the cluster: what it held is held by nobody, at once rather than after its heartbeat lapses. */
  async leave(): Promise<void> {
    await this.heartbeat?.stop();
    await this.rows.leave(this.id, this.current);
  }
}
