import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './app-process';
import { freePort } from './free-port';
import { poll } from './stack';

/** The `cluster` profile's load balancer configuration, as docker-compose.yml mounts it. */
const CONFIG = join(REPO_ROOT, 'deploy/haproxy-cluster.cfg');
/** Its Lua script, which it loads from beside itself (compose mounts it there too). */
const OWN_ANSWERS = 'haproxy-own-answers.lua';
const REPLICA = /^(\s*server api-(\d+)) api-\d+:3000(.*)$/gm;
/** The socket between its front and its HTTP layer: abstract, so one name per machine. */
const HTTP_LAYER = /abns@tps-callers-and-links\b/g;

/** The most of HAProxy's output kept (its request log grows with every request): the latest. */
const OUTPUT_KEPT = 256 * 1024;

/** How a replica stands in the balancer's rotation, as its statistics say: UP, DOWN, `UP 1/2`… */
export type ReplicaState = string;

/**
 * HAProxy run with the compose profile's configuration, unchanged but for its addresses: the
 * replicas' ports on 127.0.0.1 instead of the compose services' names, ports of its own, and a
 * socket between its front and its HTTP layer of its own (beside its Lua script, copied). For
 * the cluster drills and the cluster benchmark; Debian's `haproxy` package (.ci/run installs it).
 */
export class HaproxyBalancer {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly statsPort: number,
    private readonly runtimeSocket: string,
  ) {
    const keep = (chunk: Buffer): void => {
      this.output += chunk.toString();
      // Cut now and then, not at every chunk: copying the kept part each time would cost more.
      if (this.output.length > 2 * OUTPUT_KEPT) this.output = this.output.slice(-OUTPUT_KEPT);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /**
   * Starts it in front of `replicaPorts` (api-1, api-2, … in order), for replicas of `profile` (as
   * compose passes PROFILE to it); resolves once it listens. `timeoutServer` replaces its
   * `timeout server` (120 s), for a drill of a replica that never answers.
   */
  static async start(
    dir: string,
    replicaPorts: number[],
    profile: 'sandbox' | 'production' = 'sandbox',
    { timeoutServer }: { timeoutServer?: string } = {},
  ): Promise<HaproxyBalancer> {
    const [port, statsPort] = [await freePort(), await freePort()];
    const runtimeSocket = join(dir, 'haproxy.sock');
    let config = withRuntimeSocket(
      configFor(readFileSync(CONFIG, 'utf8'), replicaPorts, port, statsPort),
      runtimeSocket,
    );
    if (timeoutServer !== undefined) config = withTimeoutServer(config, timeoutServer);
    const file = join(dir, 'haproxy.cfg');
    writeFileSync(file, config);
    copyFileSync(join(REPO_ROOT, 'deploy', OWN_ANSWERS), join(dir, OWN_ANSWERS));
    const child = spawn('haproxy', ['-db', '-f', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PROFILE: profile },
    });
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) =>
        reject(new Error(`haproxy could not start (.ci/run installs Debian's haproxy): ${String(error)}`)),
      );
      child.once('exit', (code) => reject(new Error(`haproxy exited (${code}) on start`)));
    });
    failed.catch(() => undefined);
    const balancer = new HaproxyBalancer(child, port, statsPort, runtimeSocket);
    await Promise.race([
      failed,
      poll('haproxy listening', () => balancer.states().catch(() => undefined), 10_000),
    ]).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw new Error(`${String(error)}\n${balancer.log}`);
    });
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The latest of its output: its log of requests, checks and state changes. */
  get log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Each replica's state in the rotation (api-1, api-2, …), from the statistics page. */
  async states(): Promise<Map<string, ReplicaState>> {
    const rows = (await this.serverRows()).filter((row) => row.pxname === 'api_replicas');
    return new Map(rows.map((row) => [row.svname, row.status]));
  }

  /**
   * The replica (api-1, …) of each POST under way whose answer has not begun, from the
   * balancer's own list of sessions (`show sess all`: its HTTP layer sees callers through a
   * socket, so only the method and the state of the answer tell a request from a link).
   */
  async postsAwaitingAnswer(): Promise<string[]> {
    return (await this.runtime('show sess all'))
      .split(/\n(?=0x)/)
      .filter(
        (session) =>
          session.includes(' frontend=callers_and_links ') &&
          / meth=3 /.test(session) && // POST, in HAProxy's numbering of methods
          session.includes(' rsp.st=MSG_RPBEFORE '),
      )
      .map((session) => session.match(/ server=(api-\d+) /)?.[1] ?? '(none yet)');
  }

  /** One command to its runtime API (the socket the drill adds), and its whole answer. */
  private runtime(command: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = connect(this.runtimeSocket, () => socket.end(`${command}\n`));
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  /** The statistics page's rows of the replicas, in each backend. */
  private async serverRows(): Promise<Array<Record<string, string>>> {
    const csv = await (await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header.split(',');
    return rows
      .map((row) => Object.fromEntries(row.split(',').map((field, n) => [columns[n], field])))
      .filter((row) => row.pxname.startsWith('api_') && /^api-\d+$/.test(row.svname));
  }

  /** Waits until replica `name` (api-1, …) stands `state` (UP, DOWN) in the rotation. */
  async waitFor(name: string, state: ReplicaState, timeoutMs = 10_000): Promise<void> {
    await poll(
      `${name} ${state} at the balancer`,
      async () => ((await this.states()).get(name) === state ? true : undefined),
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** The configuration with the replicas at `replicaPorts`, callers on `port`, statistics on `statsPort`. */
function configFor(config: string, replicaPorts: number[], port: number, statsPort: number): string {
  // Each replica is a server of each backend: api-1, api-2, … in each.
  const servers = [...new Set([...config.matchAll(REPLICA)].map((match) => Number(match[2])))];
  const binds = [...config.matchAll(/^\s*bind :(\d+)$/gm)].map((match) => match[1]);
  // The drill is about this file: one that changed its shape must change the drill too.
  if (servers.join() !== replicaPorts.map((_, n) => n + 1).join() || binds.join() !== '8080,8404') {
    throw new Error(
      `${CONFIG}: expected servers api-1… and binds :8080, :8404; found ${servers.join()} ${binds.join()}`,
    );
  }
  return config
    .replace(HTTP_LAYER, `abns@tps-callers-and-links-${port}`)
    .replace(
      REPLICA,
      (_, server: string, n: string, rest: string) =>
        `${server} 127.0.0.1:${replicaPorts[Number(n) - 1]}${rest}`,
    )
    .replace(/bind :8080$/m, `bind 127.0.0.1:${port}`)
    .replace(/bind :8404$/m, `bind 127.0.0.1:${statsPort}`);
}

/** The configuration with a runtime API on the unix socket `path`, for the drills' questions. */
function withRuntimeSocket(config: string, path: string): string {
  if (!/^global$/m.test(config)) throw new Error(`${CONFIG}: expected a line "global"`);
  return config.replace(/^global$/m, `global\n    stats socket ${path} level admin`);
}

/** The configuration with `timeout server` at `timeout` instead. */
function withTimeoutServer(config: string, timeout: string): string {
  const line = /^(\s*timeout server) \S+$/m;
  if (!line.test(config)) throw new Error(`${CONFIG}: expected a line "timeout server <time>"`);
  return config.replace(line, `$1 ${timeout}`);
}
