import { Injectable, Logger } from '@nestjs/common';
import { PeriodicTask, type PeriodicTaskOptions } from '@tps/background';
import { ApiMetrics } from './api-metrics';

/** A task as its owner describes it: how a failed turn is told is the same for every task. */
export type TaskOptions = Omit<PeriodicTaskOptions, 'failed' | 'timers' | 'random'>;

/**
 * Makes the API's background loops: every failed turn logged with the task's name and counted in
 * `tps_background_task_failures_total`, whose series each task has at zero from the start.
 * Each owner starts its task when the application is up and stops it (awaiting the turn under
 * way) in its `onModuleDestroy`, before the pools close.
 */
@Injectable()
export class BackgroundTasks {
  private readonly logger = new Logger('Background');

  constructor(private readonly metrics: ApiMetrics) {}

  every(options: TaskOptions): PeriodicTask {
    this.metrics.backgroundTaskKnown(options.name);
    return new PeriodicTask({
      ...options,
      failed: (name, error) => {
        this.logger.warn(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        this.metrics.backgroundTaskFailed(name);
      },
    });
  }
}
