/** What one turn of a periodic task does. Its failure is reported, and the next turn comes anyway. */
export type Turn = () => unknown;

export interface PeriodicTaskOptions {
  /** Names the task in logs and in the failure counter. */
  name: string;
  /** The time from the end of one turn's wait to the next turn, before jitter. */
  everyMs: number;
  /**
   * Up to this fraction of `everyMs` added or taken away at random at each wait (0 to 1), so that
   * the replicas of a cluster do not run in step against the database. None by default.
   */
  jitter?: number;
  run: Turn;
  /**
   * Asked before each turn when the task is cluster-wide: only the process it answers true for
   * runs the turn (a maintenance lease, for one).
   */
  held?: () => Promise<boolean>;
  /** Told each failed turn (or failed lease question), after which the task goes on. */
  failed?: (name: string, error: unknown) => void;
  /** Where the task waits: the real timers unless a test gives its own. */
  timers?: Timers;
  /** A source of random numbers in [0, 1) for the jitter (tests make it fixed). */
  random?: () => number;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): { unref?: () => unknown };
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A background loop: a turn every `everyMs` (with jitter), never two at once, only where the
 * optional lease is held, never keeping the process alive, and stopped with the process: `stop()`
 * waits for the turn under way, so that what it uses (a pool) closes after it.
 */
export class PeriodicTask {
  private handle: unknown;
  private turn: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(private readonly options: PeriodicTaskOptions) {
    if (!(options.everyMs > 0)) throw new RangeError(`${options.name}: everyMs must be above 0`);
    const jitter = options.jitter ?? 0;
    if (!(jitter >= 0 && jitter <= 1)) throw new RangeError(`${options.name}: jitter must be in [0, 1]`);
  }

  get name(): string {
    return this.options.name;
  }

  /** Whether `stop()` was called: a long turn checks it between its steps. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Schedules the first turn one period from now; a second call does nothing. */
  start(): this {
    if (this.started || this.stopped) return this;
    this.started = true;
    this.schedule();
    return this;
  }

  /** Runs a turn now, or joins the one under way: turns never overlap. */
  runNow(): Promise<void> {
    this.turn ??= this.runTurn().finally(() => (this.turn = undefined));
    return this.turn;
  }

  /** No turn starts after this; resolves once the turn under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.handle !== undefined) (this.options.timers ?? REAL_TIMERS).clearTimeout(this.handle);
    this.handle = undefined;
    await this.turn;
  }

  private schedule(): void {
    if (this.stopped) return;
    const timers = this.options.timers ?? REAL_TIMERS;
    const handle = timers.setTimeout(() => {
      this.handle = undefined;
      void this.runNow().finally(() => this.schedule());
    }, this.nextWaitMs());
    handle.unref?.();
    this.handle = handle;
  }

  private nextWaitMs(): number {
    const { everyMs, jitter = 0, random = Math.random } = this.options;
    return Math.max(1, Math.round(everyMs * (1 + jitter * (2 * random() - 1))));
  }

  private async runTurn(): Promise<void> {
    if (this.stopped) return;
    try {
      if (this.options.held !== undefined && !(await this.options.held())) return;
      if (this.stopped) return;
      await this.options.run();
    } catch (error) {
      this.options.failed?.(this.options.name, error);
    }
  }
}
