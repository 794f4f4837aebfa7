import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { ReplicaRouting } from '../routing/replica-routing';
import { MaintenanceLease } from './maintenance-lease';

/** Rows removed per statement: each delete stays short. */
const BATCH = 100;
/** Statements per sweep at most: what is left waits for the next sweep. */
const BATCHES_PER_SWEEP = 20;
/**
 * Past its reply timeout by this much, no caller waits for a routed request any more (a live one
 * gives up 2 s after the timeout and takes its row away): the row is what a dead caller left.
 */
const LEFT_BEHIND_AFTER_MS = 10_000;

/**
 * Removes the routed requests whose caller died while it waited (contract, "Several replicas on
 * one PostgreSQL database"): nobody else takes their rows away. One replica at a time (a lease),
 * a small batch per statement.
 */
@Injectable()
export class RoutedRequestSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(
    config: ApiConfig,
    private readonly replicaRouting: ReplicaRouting,
    private readonly lease: MaintenanceLease,
    tasks: BackgroundTasks,
  ) {
    const everyMs = config.ROUTED_REQUEST_SWEEP_INTERVAL_MS;
    // The store away: the next sweep goes on from what is left.
    this.task = tasks.every({
      name: 'routed-request-sweep',
      everyMs,
      // Two sweeps long: a replica that stopped hands the sweep over after it.
      held: () => this.lease.claim('routed-requests', 2 * everyMs),
      run: () => this.sweep(),
    });
  }

  onApplicationBootstrap(): void {
    // One process routes nothing, and leaves no row.
    if (this.replicaRouting.cluster !== undefined) this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  private async sweep(): Promise<void> {
    const cluster = this.replicaRouting.cluster;
    if (cluster === undefined) return;
    for (let batch = 0; batch < BATCHES_PER_SWEEP; batch++) {
      if ((await cluster.leftBehind.remove(LEFT_BEHIND_AFTER_MS, BATCH)) < BATCH) return;
    }
  }
}
