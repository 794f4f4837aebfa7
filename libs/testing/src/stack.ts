import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_ENTRY, AppProcess, SIMULATOR_ENTRY } from './app-process';
import { SignedClient } from './signed-client';
import { TestStore, type StoreKind } from './test-store';

export interface StackOptions {
  apiEnv?: Record<string, string>;
  simulatorEnv?: Record<string, string>;
  /** Serials to switch to pace `instant` once linked (the seed's by default). */
  instant?: string[];
  /** Start without the simulator (to try an API with no terminal linked). */
  withoutSimulator?: boolean;
  /** Node flags for both apps, e.g. `--inspect=127.0.0.1:0` for a benchmark that reads their heap. */
  nodeArgs?: string[];
  /** The API's limit of open file descriptors (`ulimit -n`); the simulator keeps this process's. */
  apiDescriptorLimit?: number;
  /** How long each app may take to listen (AppProcess's default unless set): longer on a loaded machine. */
  startTimeoutMs?: number;
  /** Where both apps store: SQLite files (the default) or databases of their own on PostgreSQL. */
  store?: StoreKind;
  /**
   * Rewrites an app's database URL before it starts, e.g. through a benchmark's counting proxy;
   * `replica` is the API replica's index (0 for the first), undefined for the simulator.
   */
  routeDatabase?: (app: 'api' | 'terminal', url: string, replica?: number) => string;
  /**
   * Gives each app its database's own URL as DATABASE_DIRECT_URL beside the one routeDatabase
   * made (a pooler's), as a platform team's pooled database is configured.
   */
  directBesideRouted?: boolean;
  /**
   * API replicas on the one API database (PostgreSQL only; 1 by default): the simulator is given
   * all of them, links to the first and to the next when that one is gone.
   */
  replicas?: number;
}

export const SEEDED_SERIALS = ['SIM0000001', 'SIM0000002', 'SIM0000003'];
export const LINK_SECRET = 'test-link-secret-0123456789';

async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Both apps as real processes on ephemeral ports, each on a store of its own (SQLite file or PostgreSQL database). */
export class Stack {
  api!: AppProcess;
  /** Every API replica, the first being `api`. */
  readonly replicas: AppProcess[] = [];
  simulator: AppProcess | undefined;
  readonly dir: string;
  readonly store: TestStore;

  private constructor(private readonly options: StackOptions) {
    this.dir = mkdtempSync(join(tmpdir(), 'tps-e2e-'));
    this.store = new TestStore(options.store ?? 'sqlite', this.dir);
  }

  /**
   * Both apps started, ready to use. If one fails to start, what was made for them is undone
   * (processes stopped, databases dropped, files removed) before the failure is thrown.
   */
  static async start(options: StackOptions = {}): Promise<Stack> {
    const stack = new Stack(options);
    try {
      await stack.launch();
    } catch (error) {
      await stack.stop().catch(() => undefined);
      throw error;
    }
    return stack;
  }

  private async launch(): Promise<void> {
    const { options } = this;
    await this.startApi();
    for (let n = 1; n < (options.replicas ?? 1); n++) await this.startReplica();
    if (!options.withoutSimulator) {
      await this.startSimulator();
      if (this.replicas.length > 1) await this.waitReady();
      else await this.waitLinked(SEEDED_SERIALS.length);
      const client = this.client();
      for (const serial of options.instant ?? SEEDED_SERIALS) {
        const owner =
          serial === 'SIM0000003' ? { merchantId: 'other-merchant', secret: 'other-secret-key' } : undefined;
        const response = await (owner ? client.as(owner) : client).patch(`/sandbox/terminals/${serial}`, {
          pace: 'instant',
        });
        if (response.status !== 200)
          throw new Error(`could not make ${serial} instant: ${JSON.stringify(response.body)}`);
      }
    }
  }

  get apiUrl(): string {
    return this.api.url;
  }

  client(): SignedClient {
    return new SignedClient(this.api.url);
  }

  /** The API's SQLite file (SQLite stacks only). */
  get apiDatabase(): string {
    return this.store.sqliteFile('api');
  }

  private async databaseUrl(app: 'api' | 'terminal', replica?: number): Promise<string> {
    const url = await this.store.url(app);
    return this.options.routeDatabase?.(app, url, replica) ?? url;
  }

  /** DATABASE_DIRECT_URL for `app`, if the stack gives one (directBesideRouted). */
  private async directUrl(app: 'api' | 'terminal'): Promise<Record<string, string>> {
    return this.options.directBesideRouted === true ? { DATABASE_DIRECT_URL: await this.store.url(app) } : {};
  }

  async startApi(extraEnv: Record<string, string> = {}): Promise<void> {
    this.api = await this.apiProcess(extraEnv, 0);
    this.replicas[0] = this.api;
  }

  /** One more API replica on the same database. */
  async startReplica(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
    const replica = await this.apiProcess(extraEnv, this.replicas.length);
    this.replicas.push(replica);
    return replica;
  }

  /** A client of replica `n`. */
  clientOf(n: number): SignedClient {
    return new SignedClient(this.replicas[n].url);
  }

  private async apiProcess(extraEnv: Record<string, string>, index: number): Promise<AppProcess> {
    return AppProcess.start(
      'api',
      API_ENTRY,
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: await this.databaseUrl('api', index),
        ...(await this.directUrl('api')),
        LINK_SECRET,
        // The sandbox's local secrets key beside the test's other files, whatever the store
        // (on SQLite that is its default place; on PostgreSQL it would be the working folder's data/).
        SECRETS_KEY_FILE: join(this.dir, 'api-secrets.key'),
        ...this.options.apiEnv,
        ...extraEnv,
      },
      {
        nodeArgs: this.options.nodeArgs,
        timeoutMs: this.options.startTimeoutMs,
        descriptorLimit: this.options.apiDescriptorLimit,
      },
    );
  }

  /** Stops the API and starts it again on the same database, with settings changed. */
  async restartApi(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.api.stop();
    await this.startApi(extraEnv);
  }

  async startSimulator(): Promise<void> {
    this.simulator = await AppProcess.start(
      'terminal-simulator',
      SIMULATOR_ENTRY,
      {
        PORT: '0',
        HOST: '127.0.0.1',
        API_URL: this.replicas.map((replica) => replica.url).join(','),
        DATABASE_URL: await this.databaseUrl('terminal'),
        ...(await this.directUrl('terminal')),
        LINK_SECRET,
        RECONNECT_MIN_MS: '20',
        ...this.options.simulatorEnv,
      },
      { nodeArgs: this.options.nodeArgs, timeoutMs: this.options.startTimeoutMs },
    );
  }

  /** Waits until the API reports at least `count` terminals linked. */
  async waitLinked(count: number, timeoutMs = 10_000): Promise<void> {
    await poll(
      `${count} linked terminals`,
      async () => {
        const response = await fetch(`${this.api.url}/health`);
        const health = (await response.json()) as { linked_terminals: number };
        return health.linked_terminals >= count ? true : undefined;
      },
      timeoutMs,
    );
  }

  /** Waits until replica `n` answers `GET /ready` with 200. */
  async waitReady(n = 0, timeoutMs = 10_000): Promise<void> {
    await poll(
      `replica ${n} ready`,
      async () => ((await fetch(`${this.replicas[n].url}/ready`)).status === 200 ? true : undefined),
      timeoutMs,
    );
  }

  /** Waits until the terminals have no event left that the service has not acknowledged. */
  async waitQueueDrained(timeoutMs = 10_000): Promise<void> {
    const simulator = this.simulator;
    if (simulator === undefined) throw new Error('no simulator running');
    await poll(
      'the terminal queue to drain',
      async () => {
        const response = await fetch(`${simulator.url}/health`);
        const health = (await response.json()) as { queued_events: number };
        return health.queued_events === 0 ? true : undefined;
      },
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    await this.simulator?.stop();
    for (const replica of this.replicas.slice(1)) await replica.stop();
    await this.api?.stop();
    await this.store.drop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export { poll };
