import type { CaseName } from './conformance-cases';
import { scoreOf, type CaseReport, type RunReport } from './conformance-report';

/** A run as kept: its report grows as cases are decided. */
export interface StoredRun {
  merchantId: string;
  id: string;
  /**
   * The client address that started it, held to its cap of runs at once (contract §22); null for
   * a run stored before addresses were.
   */
  clientAddress: string | null;
  url: string;
  cases: CaseName[];
  startedAtMs: number;
  finishedAtMs: number | null;
  results: CaseReport[];
}

/** Runs kept per account: the newest; older ones are dropped. */
export const RUNS_PER_ACCOUNT = 20;
/** Runs kept in all: a bound on memory whatever the number of accounts. */
export const RUNS_IN_ALL = 2000;

export function reportOf(run: StoredRun): RunReport {
  // Reported in the order of the request, whatever order they were decided in.
  const cases = run.cases.flatMap((name) => run.results.filter((r) => r.name === name));
  return {
    id: run.id,
    url: run.url,
    state: run.finishedAtMs === null ? 'running' : 'finished',
    started_at: new Date(run.startedAtMs).toISOString(),
    ...(run.finishedAtMs === null ? {} : { finished_at: new Date(run.finishedAtMs).toISOString() }),
    score: scoreOf(cases, run.cases.length),
    cases,
  };
}

/**
 * The runs, in memory with a bound (per account and in all). A run is a diagnostic that lives a
 * minute, and it is executed, and its searches watched, by the process that started it; a run
 * lost with a restart is started again in a minute.
 */
export class RunStore {
  /** Insertion order is age order: the first key is the oldest run. */
  private readonly runs = new Map<string, StoredRun>();

  add(run: StoredRun): void {
    this.runs.set(run.id, run);
    const own = this.list(run.merchantId);
    for (const old of own.slice(RUNS_PER_ACCOUNT)) this.runs.delete(old.id);
    for (const id of this.runs.keys()) {
      if (this.runs.size <= RUNS_IN_ALL) break;
      this.runs.delete(id);
    }
  }

  /** Another account's run is as unknown as one that never was. */
  get(merchantId: string, id: string): StoredRun | undefined {
    const run = this.runs.get(id);
    return run?.merchantId === merchantId ? run : undefined;
  }

  /** The account's runs, newest first. */
  list(merchantId: string): StoredRun[] {
    return [...this.runs.values()].filter((run) => run.merchantId === merchantId).reverse();
  }

  running(): StoredRun[] {
    return [...this.runs.values()].filter((run) => run.finishedAtMs === null);
  }
}
