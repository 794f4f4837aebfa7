import { setTimeout as sleep } from 'node:timers/promises';
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '@tps/background';
import type { TerminalPurge } from '@tps/database';

const DAY_MS = 86_400_000;
/** The pause between two writes of a sweep, leaving the write queue to the terminals. */
const BATCH_PAUSE_MS = 10;

export interface TerminalRetentionSettings {
  RETENTION_DAYS: number;
  RETENTION_SWEEP_INTERVAL_MS: number;
  RETENTION_BATCH: number;
}

/**
 * Retention of the terminals' own stores (contract, "Retention"): every RETENTION_SWEEP_INTERVAL_MS
 * each terminal this process hosts drops what is older than RETENTION_DAYS, RETENTION_BATCH
 * transactions per write with a pause between writes, so the write path is never held long. Old is
 * counted on `now` (the real clock; a test's own): a record dated ahead on a sandbox clock stays
 * until real time reaches it, never less long than the service keeps it.
 */
export class TerminalRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private readonly task: PeriodicTask;

  constructor(
    private readonly settings: TerminalRetentionSettings,
    private readonly purge: TerminalPurge,
    /** The serials of the terminals this process hosts: each process sweeps its own, once. */
    private readonly serials: () => string[],
    private readonly now: () => number = Date.now,
  ) {
    this.task = new PeriodicTask({
      name: 'terminal-retention',
      everyMs: settings.RETENTION_SWEEP_INTERVAL_MS,
      run: () => this.sweep(),
      // A storage failure midway: the next sweep goes on from what is left.
      failed: (name, error) => this.logger.warn(`${name} stopped: ${(error as Error).message}`),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** One sweep over every hosted terminal; resolves how many records it removed (a batch's larger count). */
  async sweep(): Promise<number> {
    let removed = 0;
    const before = new Date(this.now() - this.settings.RETENTION_DAYS * DAY_MS).toISOString();
    for (const serial of this.serials()) {
      for (;;) {
        if (this.task.stopping) return removed;
        const taken = await this.purge.purgeBatch(serial, before, this.settings.RETENTION_BATCH);
        removed += taken;
        if (taken < this.settings.RETENTION_BATCH) break;
        await sleep(BATCH_PAUSE_MS);
      }
    }
    return removed;
  }
}
