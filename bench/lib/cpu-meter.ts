import { cpuTimeMs } from './resident-memory';

/** CPU time per group of processes, ms. */
export type CpuByGroup = Record<string, number>;

const readCpu = (pid: number): number | undefined => {
  try {
    return cpuTimeMs(pid);
  } catch {
    return undefined;
  }
};

interface Tracked {
  group: string;
  /** CPU when first seen: 0 for a process that started after the meter did. */
  base: number;
  last: number;
}

/**
 * CPU time (user + system, from /proc) of every process of a run: fixed ones (the apps) and ones
 * that come and go (PostgreSQL's backends, a process per connection), listed again every
 * `sampleMs` so that a backend that ends between two readings loses at most that much of its CPU.
 * `reading()` is what each group spent since the meter started; two readings give a phase's.
 */
export class CpuMeter {
  private readonly tracked = new Map<number, Tracked>();
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> = Promise.resolve();

  private constructor(
    private readonly fixed: Record<string, number | undefined>,
    private readonly dynamic: Record<string, () => Promise<number[]>>,
  ) {}

  static async start(
    fixed: Record<string, number | undefined>,
    dynamic: Record<string, () => Promise<number[]>> = {},
    sampleMs = 500,
  ): Promise<CpuMeter> {
    const meter = new CpuMeter(fixed, dynamic);
    for (const [group, pid] of Object.entries(fixed)) meter.track(group, pid, false);
    await meter.sample(false);
    meter.timer = setInterval(() => void meter.refresh(), sampleMs);
    return meter;
  }

  /** CPU spent by each group since the start, ms (a process gone since counts what it had spent). */
  async reading(): Promise<CpuByGroup> {
    await this.refresh();
    for (const [pid, tracked] of this.tracked) tracked.last = readCpu(pid) ?? tracked.last;
    const spent: CpuByGroup = {};
    for (const group of [...Object.keys(this.fixed), ...Object.keys(this.dynamic)]) spent[group] = 0;
    for (const tracked of this.tracked.values()) spent[tracked.group] += tracked.last - tracked.base;
    return spent;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private refresh(): Promise<void> {
    this.sampling = this.sampling.then(() => this.sample(true)).catch(() => undefined);
    return this.sampling;
  }

  private async sample(later: boolean): Promise<void> {
    for (const [group, list] of Object.entries(this.dynamic))
      for (const pid of await list()) this.track(group, pid, later);
    for (const [pid, tracked] of this.tracked) tracked.last = readCpu(pid) ?? tracked.last;
  }

  private track(group: string, pid: number | undefined, startedLater: boolean): void {
    if (pid === undefined || this.tracked.has(pid)) return;
    const now = readCpu(pid);
    if (now === undefined) return;
    this.tracked.set(pid, { group, base: startedLater ? 0 : now, last: now });
  }
}
