/** A conformance run as `GET /sandbox/conformance-runs/{id}` answers it (contract §17). */
export interface ConformanceCase {
  name: string;
  rule: string;
  expected: string;
  observed: string;
  passed: boolean;
  /** Not decided (no report URL given): `observed` says why; never passed. */
  skipped?: boolean;
  hint: string;
}

export interface ConformanceRun {
  id: string;
  url: string;
  state: 'running' | 'finished';
  started_at: string;
  finished_at?: string;
  score: { passed: number; failed: number; skipped: number; total: number };
  cases: ConformanceCase[];
}

/** "9/10 passed" ("8/8 passed, 2 skipped"), or "3 of 10 decided" while the run goes on. */
export function scoreWords(run: ConformanceRun): string {
  const { passed, failed, skipped, total } = run.score;
  if (run.state === 'running') return `running: ${passed + failed} of ${total} decided`;
  return `${passed}/${total} passed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}
