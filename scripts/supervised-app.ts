import type { ChildProcess } from 'node:child_process';

/** The pause before an app that exited by itself is started again, doubling with each quick exit. */
const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30_000;
/** An app that ran this long before it exited is started again after the first pause. */
const STEADY_AFTER_MS = 60_000;

/**
 * One app of `npm run start:cluster`, kept running: started again when it exits without being
 * asked to, after a pause that doubles with each quick exit (1 s up to 30 s), so that one that
 * cannot start (its port taken, its database away) does not spin. Each start runs what the build
 * on disk holds then.
 */
export class SupervisedApp {
  private child: ChildProcess | undefined;
  private startedAt = 0;
  private pauseMs = FIRST_PAUSE_MS;
  private again: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    readonly name: string,
    private readonly spawnApp: () => ChildProcess,
    private readonly say: (line: string) => void,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.stopping = false;
    this.startedAt = Date.now();
    const child = this.spawnApp();
    this.child = child;
    this.say(`[${this.name}] started, pid ${child.pid}`);
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      if (Date.now() - this.startedAt >= STEADY_AFTER_MS) this.pauseMs = FIRST_PAUSE_MS;
      this.say(
        `[${this.name}] stopped by itself (${signal ?? `exit code ${code}`}); starting it again in ${this.pauseMs} ms`,
      );
      this.again = setTimeout(() => this.start(), this.pauseMs);
      this.pauseMs = Math.min(LONGEST_PAUSE_MS, 2 * this.pauseMs);
    });
  }

  /** Stops it (SIGTERM, then SIGKILL after `graceMs`); resolves once it has exited. It stays stopped. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.again);
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(kill);
  }

  /** Stops it as `stop` does, then starts it again from the build on disk. */
  async restart(graceMs: number): Promise<void> {
    await this.stop(graceMs);
    this.pauseMs = FIRST_PAUSE_MS;
    this.start();
  }
}
