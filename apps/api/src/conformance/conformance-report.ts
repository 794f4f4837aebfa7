import type { CaseName } from './conformance-cases';

/** One case as a run reports it (contract §17). */
export interface CaseReport {
  name: CaseName;
  rule: string;
  expected: string;
  observed: string;
  passed: boolean;
  /** Present, and `passed` false, when the case could not be decided: `observed` says why. */
  skipped?: true;
  hint: string;
}

export interface RunScore {
  passed: number;
  failed: number;
  /** Cases not decided (e.g. no report_url), outside `total`: never counted as passed. */
  skipped: number;
  total: number;
}

/** A run as `GET /sandbox/conformance-runs/{id}` answers it. */
export interface RunReport {
  id: string;
  url: string;
  state: 'running' | 'finished';
  started_at: string;
  finished_at?: string;
  score: RunScore;
  cases: CaseReport[];
}

/**
 * The score counts the cases decided so far; `total` is every case the run was asked for but the
 * skipped ones.
 */
export function scoreOf(cases: CaseReport[], asked: number): RunScore {
  const passed = cases.filter((c) => c.passed).length;
  const skipped = cases.filter((c) => c.skipped === true).length;
  return { passed, failed: cases.length - passed - skipped, skipped, total: asked - skipped };
}
