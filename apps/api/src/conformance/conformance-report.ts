import type { CaseName } from './conformance-cases';

/** One case as a run reports it (contract §17). */
export interface CaseReport {
  name: CaseName;
  rule: string;
  expected: string;
  observed: string;
  passed: boolean;
  hint: string;
}

export interface RunScore {
  passed: number;
  failed: number;
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

/** The score counts the cases decided so far; `total` is every case the run was asked for. */
export function scoreOf(cases: CaseReport[], total: number): RunScore {
  const passed = cases.filter((c) => c.passed).length;
  return { passed, failed: cases.length - passed, total };
}
