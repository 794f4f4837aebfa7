import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const PROMETHEUS = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';
const START_TIMEOUT_MS = 20_000;

/** One series of an instant query's answer: its labels and its value at the query's time. */
export interface Sample {
  metric: Record<string, string>;
  value: number;
}

/**
 * A Prometheus process of the test's own (Debian's), on a free port of 127.0.0.1, scraping the
 * given targets (`host:port`, each its `/metrics`) under the job `tps`, its data in a scratch
 * folder removed at the stop.
 */
export class PrometheusServer {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(targets: string[], scrapeEverySeconds: number): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), 'tps-prometheus-'));
    const port = await freePort();
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        `  scrape_interval: ${scrapeEverySeconds}s`,
        // A scrape that takes longer than the interval counts as a failed one (up 0).
        `  scrape_timeout: ${scrapeEverySeconds}s`,
        'scrape_configs:',
        '  - job_name: tps',
        '    static_configs:',
        `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
        '',
      ].join('\n'),
    );
    const child = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const server = new PrometheusServer(child, dir, `http://127.0.0.1:${port}`);
    try {
      await server.ready();
    } catch (error) {
      // Not left running (nor its folder left behind) when it never became ready.
      await server.stop();
      throw error;
    }
    return server;
  }

  /** An instant query's vector at `time` (seconds since the epoch; now when absent). */
  async query(expression: string, time?: number): Promise<Sample[]> {
    const params = new URLSearchParams({ query: expression });
    if (time !== undefined) params.set('time', String(time));
    const response = await fetch(`${this.url}/api/v1/query?${params.toString()}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: {
        resultType: string;
        result: Array<{ metric: Record<string, string>; value: [number, string] }>;
      };
    };
    if (body.status !== 'success' || body.data?.resultType !== 'vector') {
      throw new Error(`query ${expression}: ${body.error ?? JSON.stringify(body)}`);
    }
    return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
  }

  /** Resolves once every target has been scraped at least once since the call. */
  async scrapedAgain(): Promise<void> {
    const since = Date.now() / 1000;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const response = await fetch(`${this.url}/api/v1/targets`);
      const body = (await response.json()) as {
        data: { activeTargets: Array<{ lastScrape: string }> };
      };
      const targets = body.data.activeTargets;
      if (targets.length > 0 && targets.every((target) => Date.parse(target.lastScrape) / 1000 > since))
        return;
      if (Date.now() > deadline) throw new Error(`prometheus did not scrape every target:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  get log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async ready(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`prometheus exited at start:\n${this.output}`);
      const ready = await fetch(`${this.url}/-/ready`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline)
        throw new Error(`prometheus was not ready within ${START_TIMEOUT_MS} ms:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
