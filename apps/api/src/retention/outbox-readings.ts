import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
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
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly config: ApiConfig,
    private readonly lease: MaintenanceLease,
    private readonly metrics: ApiMetrics,
  ) {}

  onApplicationBootstrap(): void {
    // No metrics route, nobody to read them for.
    if (this.config.METRICS_PORT === undefined && this.config.METRICS_TOKEN === undefined) return;
    this.schedule(0);
  }

  /** Stops reading, and waits for a reading under way: the database closes after its last user. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.read().finally(() => {
        this.running = undefined;
        this.schedule(this.config.METRICS_REFRESH_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    try {
      const held = await this.lease.claim(LEASE, LEASE_READINGS * this.config.METRICS_REFRESH_MS);
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
