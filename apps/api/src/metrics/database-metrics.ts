import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { PeriodicTask } from '@tps/background';
import {
  DATABASE_TIMEOUT_KINDS,
  DatabaseProbe,
  poolStatsOf,
  timeoutKindOf,
  type DatabaseTimeoutKind,
} from '@tps/database';
import { BackgroundTasks } from './background-tasks';
import { ApiConfig } from '../config/api-config';
import { ApiMetrics } from './api-metrics';

/**
 * The database as this replica sees it (README, "Metrics"): its pool's connections in use and
 * the callers waiting for one, read at each scrape from the process's own pool; the round-trip
 * time of a `SELECT 1` sent in the background every METRICS_REFRESH_MS (a scrape reads nothing
 * outside the process); the waits that ended at their bound, by kind.
 */
@Injectable()
export class DatabaseMetrics implements OnModuleInit, OnModuleDestroy {
  private readonly timeouts: Counter<'kind'>;
  private rttSeconds = 0;
  /** A measure still waiting (the database slow or away) delays the next one: they never pile up. */
  private readonly measures: PeriodicTask;

  constructor(
    metrics: ApiMetrics,
    config: ApiConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly database: DatabaseProbe,
    tasks: BackgroundTasks,
  ) {
    this.measures = tasks.every({
      name: 'database-rtt',
      everyMs: config.METRICS_REFRESH_MS,
      run: () => this.measure(),
    });
    const registers = [metrics.registry];
    const pool = (): ReturnType<typeof poolStatsOf> => poolStatsOf(this.dataSource);
    const connections: Gauge<'state'> = new Gauge({
      name: 'tps_database_pool_connections',
      help: "Connections of this replica's database pool, by state: in_use or idle (PostgreSQL)",
      labelNames: ['state'],
      registers,
      collect: () => {
        const stats = pool();
        connections.set({ state: 'in_use' }, stats === undefined ? 0 : stats.total - stats.idle);
        connections.set({ state: 'idle' }, stats?.idle ?? 0);
      },
    });
    const waiting: Gauge = new Gauge({
      name: 'tps_database_pool_waiting',
      help: "Callers waiting for a connection of this replica's database pool (PostgreSQL)",
      registers,
      collect: () => waiting.set(pool()?.waiting ?? 0),
    });
    const rtt: Gauge = new Gauge({
      name: 'tps_database_rtt_seconds',
      help: 'Round-trip time of the last SELECT 1 this replica sent its database, in the background',
      registers,
      collect: () => rtt.set(this.rttSeconds),
    });
    this.timeouts = new Counter({
      name: 'tps_database_timeouts_total',
      help: 'Waits on the database that ended at their bound, by kind: acquire (a connection), statement, lock',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of DATABASE_TIMEOUT_KINDS) this.timeouts.inc({ kind }, 0);
  }

  onModuleInit(): void {
    this.measures.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.measures.stop();
  }

  timedOut(kind: DatabaseTimeoutKind): void {
    this.timeouts.inc({ kind });
  }

  private async measure(): Promise<void> {
    if (!this.dataSource.isInitialized) return;
    const started = process.hrtime.bigint();
    try {
      await this.database.ping();
      this.rttSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    } catch (error) {
      const kind = timeoutKindOf(error);
      if (kind !== undefined) this.timedOut(kind);
    }
  }
}
