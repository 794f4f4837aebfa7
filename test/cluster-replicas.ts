import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_ENTRY, AppProcess, LINK_SECRET, SIMULATOR_ENTRY, TestStore } from '@tps/testing';

/**
 * API replicas as real processes on ephemeral ports, all on one PostgreSQL database (contract
 * "Several replicas"), with at most one simulator linked to the first.
 */
export class Replicas {
  readonly apis: AppProcess[] = [];
  simulator: AppProcess | undefined;
  readonly store: TestStore;
  private readonly dir = mkdtempSync(join(tmpdir(), 'tps-cluster-'));

  constructor(private readonly env: Record<string, string> = {}) {
    this.store = new TestStore('postgres', this.dir);
  }

  /** Starts `count` replicas at once; resolves when every one listens. */
  async start(count: number, env: Record<string, string> = {}): Promise<AppProcess[]> {
    const url = await this.store.url('api');
    const starts = await Promise.allSettled(
      Array.from({ length: count }, () =>
        AppProcess.start('api', API_ENTRY, {
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: url,
          LINK_SECRET,
          // One secrets key for every replica of the database (contract, "Secrets at rest").
          SECRETS_KEY_FILE: join(this.dir, 'api-secrets.key'),
          ...this.env,
          ...env,
        }),
      ),
    );
    const started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    // The ones that came up are stopped with the rest, even when another did not.
    this.apis.push(...started);
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return started;
  }

  /** The simulator, linked to `api`, with a store of its own. */
  async startSimulator(api: AppProcess): Promise<AppProcess> {
    this.simulator = await AppProcess.start('terminal-simulator', SIMULATOR_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      API_URL: api.url,
      DATABASE_URL: await this.store.url('terminal'),
      LINK_SECRET,
      RECONNECT_MIN_MS: '20',
    });
    return this.simulator;
  }

  async stop(): Promise<void> {
    await this.simulator?.stop();
    await Promise.all(this.apis.map((api) => api.stop()));
    await this.store.drop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
