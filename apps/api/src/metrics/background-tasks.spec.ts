import 'reflect-metadata';
import type { ApiConfig } from '../config/api-config';
import type { ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from './api-metrics';
import { BackgroundTasks } from './background-tasks';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({
  Injectable: () => () => undefined,
  Inject: () => () => undefined,
  Logger: class {
    warn(): void {}
  },
}));

describe('BackgroundTasks', () => {
  it("gives each task its failures' series at zero, and counts each failed turn", async () => {
    const metrics = new ApiMetrics(
      { REPLICA_ID: 'spec' } as ApiConfig,
      { subscribe: () => () => undefined } as unknown as ApiMessages,
    );
    const tasks = new BackgroundTasks(metrics);
    const task = tasks.every({
      name: 'sweep',
      everyMs: 60_000,
      run: () => {
        throw new Error('store down');
      },
    });
    const line = async (): Promise<string | undefined> =>
      (await metrics.scrape())
        .split('\n')
        .find((sample) => sample.startsWith('tps_background_task_failures_total{task="sweep"'));
    expect(await line()).toBe('tps_background_task_failures_total{task="sweep",replica="spec"} 0');
    await task.runNow();
    await task.runNow();
    expect(await line()).toBe('tps_background_task_failures_total{task="sweep",replica="spec"} 2');
    metrics.onModuleDestroy();
  });
});
