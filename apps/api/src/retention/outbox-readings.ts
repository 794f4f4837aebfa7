import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { ApiMetrics } from '../metrics/api-metrics';
import { MaintenanceLease } from './maintenance-lease';

/** The lease's name in `maintenance_leases`. */
const LEASE = 'outbox-readings';
/** Three readings long: a replica that stopped hands the readings over after it. */
const LEASE_READINGS = 3;

/**
 * Reads the outbox's depth and oldest age for the metrics (README, "Metrics") in the background,
 * every METRICS_REFRESH_MS, so that a scrape reads nothing from the database. One replica reads
 * them (a lease) and it alone exports them: they are the whole cluster's, and a sum over replicas
 * counts them once. A failed reading, or a lease that cannot be renewed because the database is
 * away, changes nothing: the replica goes on exporting its last reading, whose age grows.
 */
@Injectable()
export class OutboxReadings implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Metrics');
  private readonly task: PeriodicTask;
  private failing = false;
  /** Whether a metrics route serves the readings: without one, nobody reads them. */
  private readonly wanted: boolean;

  constructor(
    config: ApiConfig,
    private readonly lease: MaintenanceLease,
    private readonly metrics: ApiMetrics,
    tasks: BackgroundTasks,
  ) {
    this.task = tasks.every({
      name: 'outbox-readings',
      everyMs: config.METRICS_REFRESH_MS,
      run: () => this.read(LEASE_READINGS * config.METRICS_REFRESH_MS),
    });
    this.wanted = config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined;
  }

  onApplicationBootstrap(): void {
    if (!this.wanted) return;
    void this.task.runNow();
    this.task.start();
  }

  /** Stops reading, and waits for a reading under way: the database closes after its last user. */
  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  private async read(leaseMs: number): Promise<void> {
    try {
      const held = await this.lease.claim(LEASE, leaseMs);
      this.metrics.exportClusterFigures(held);
      if (held) await this.metrics.readOutboxNow();
      if (this.failing) this.logger.log('the outbox is read again');
      this.failing = false;
    } catch (error) {
      // Said once per outage, not at every reading.
      if (!this.failing)
        this.logger.warn(`the outbox could not be read: ${String(error)}; keeping the last reading`);
      this.failing = true;
    }
  }
}
