import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** How a PgBouncer hands its server connections to clients: for a whole session, or per transaction. */
export type PoolMode = 'session' | 'transaction';

const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
/** PgBouncer refuses to run as root: it runs as the server's own user. */
const RUN_AS = 'postgres';
const START_TIMEOUT_MS = 10_000;

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, RUN_AS], { encoding: 'utf8' }).trim());
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited at start:\n${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline)
      throw new Error(`pgbouncer did not listen within ${START_TIMEOUT_MS} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A PgBouncer process of the test's own in front of the machine's PostgreSQL (every database
 * name passed through), on a free port of 127.0.0.1, as platform teams run one: `transaction`
 * mode hands a server connection to a client for one transaction only.
 */
export class PgBouncer {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /** `target.user`: the role its server connections log in as, whatever role a client gave. */
  static async start(
    mode: PoolMode,
    target: { host: string; port: number; user?: string } = { host: '127.0.0.1', port: 5432 },
    serverConnections = 20,
  ): Promise<PgBouncer> {
    const dir = mkdtempSync(join(tmpdir(), 'tps-pgbouncer-'));
    const uid = idOf('-u');
    const gid = idOf('-g');
    const port = await freePort();
    const ini = join(dir, 'pgbouncer.ini');
    writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
    writeFileSync(
      ini,
      [
        '[databases]',
        `* = host=${target.host} port=${target.port}${target.user === undefined ? '' : ` user=${target.user}`}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        `pool_mode = ${mode}`,
        `default_pool_size = ${serverConnections}`,
        'max_client_conn = 500',
        '',
      ].join('\n'),
    );
    chownSync(dir, uid, gid);
    for (const file of ['pgbouncer.ini', 'users.txt']) chownSync(join(dir, file), uid, gid);
    const child = spawn(PGBOUNCER, [ini], { uid, gid, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const bouncer = new PgBouncer(child, dir, port);
    try {
      await listening(port, child, () => bouncer.output);
    } catch (error) {
      await bouncer.stop();
      throw error;
    }
    return bouncer;
  }

  /** `url` (a PostgreSQL URL of the machine's server) through this PgBouncer. */
  route(url: string): string {
    const through = new URL(url);
    through.host = `127.0.0.1:${this.port}`;
    return through.toString();
  }

  /** What PgBouncer logged, for a failure's message. */
  get log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
