import { percentile } from './stats';

const EVERY_MS = 250;
const WAITING = /^tps_database_pool_waiting(?:\{[^}]*\})? (\d+(?:\.\d+)?)$/m;

/**
 * How many callers wait for a connection of the API's pool, read from its `/metrics` (on the
 * METRICS_PORT its log names) every 250 ms while a run lasts: the pool sized by the rule should
 * keep it near 0.
 */
export class PoolWaitSampler {
  private readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly metricsUrl: string) {
    this.timer = setInterval(() => void this.sample(), EVERY_MS);
  }

  /** `apiLog`: the API's output so far, which names its metrics port. */
  static start(apiLog: string): PoolWaitSampler {
    const port = /metrics on port (\d+)/.exec(apiLog)?.[1];
    if (port === undefined) throw new Error('the API named no metrics port (METRICS_PORT unset?)');
    return new PoolWaitSampler(`http://127.0.0.1:${port}/metrics`);
  }

  async stop(): Promise<{ p99: number; max: number }> {
    clearInterval(this.timer);
    return { p99: percentile(this.samples, 99), max: Math.max(0, ...this.samples) };
  }

  private async sample(): Promise<void> {
    const text = await fetch(this.metricsUrl, { signal: AbortSignal.timeout(EVERY_MS * 4) }).then(
      (response) => response.text(),
      () => '',
    );
    const waiting = WAITING.exec(text)?.[1];
    if (waiting !== undefined) this.samples.push(Number(waiting));
  }
}
