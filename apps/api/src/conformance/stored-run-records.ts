import type { Pool } from 'pg';
import type { CaseName } from './conformance-cases';
import type { CaseReport } from './conformance-report';
import { CUT_MARGIN_MS, type RunRecords } from './run-records';
import { RUNS_IN_ALL, RUNS_PER_ACCOUNT, type StoredRun } from './run-store';

interface RunRow {
  id: string;
  merchant_id: string;
  url: string;
  cases: string;
  started_at_ms: string | number;
  finished_at_ms: string | number | null;
  results: string;
}

const COLUMNS = 'id, merchant_id, url, cases, started_at_ms, finished_at_ms, results';

/**
 * Conformance runs in the database several replicas share: the replica that runs one writes it as
 * it grows, any replica reads it. A run whose replica died before it ended is shown as cut at its
 * limit once CUT_MARGIN_MS past it (contract §17: whatever still waits after `runMs` is cut).
 */
export class StoredRunRecords implements RunRecords {
  /** One write after another: a run's later state never overtaken by an earlier one. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly runMs: number,
    private readonly now: () => number,
  ) {}

  save(run: StoredRun): Promise<void> {
    const params = [
      run.id,
      run.merchantId,
      run.url,
      JSON.stringify(run.cases),
      run.startedAtMs,
      run.finishedAtMs,
      JSON.stringify(run.results),
    ];
    const write = this.writes.then(async () => {
      await this.pool.query(
        `INSERT INTO conformance_runs (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET finished_at_ms = EXCLUDED.finished_at_ms, results = EXCLUDED.results`,
        params,
      );
      if (run.finishedAtMs === null && run.results.length === 0) await this.trim(run.merchantId);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  async get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE id = $1 AND merchant_id = $2`,
      [id, merchantId],
    );
    return rows[0] === undefined ? undefined : this.runOf(rows[0]);
  }

  async list(merchantId: string): Promise<StoredRun[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE merchant_id = $1
       ORDER BY started_at_ms DESC LIMIT ${RUNS_PER_ACCOUNT}`,
      [merchantId],
    );
    return rows.map((row) => this.runOf(row));
  }

  async running(sinceMs: number): Promise<StoredRun[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE finished_at_ms IS NULL AND started_at_ms > $1`,
      [sinceMs],
    );
    return rows.map((row) => this.runOf(row));
  }

  /** The account's newest runs, and the newest in all, are kept; a new run makes room. */
  private async trim(merchantId: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs WHERE merchant_id = $1 ORDER BY started_at_ms DESC OFFSET ${RUNS_PER_ACCOUNT})`,
      [merchantId],
    );
    await this.pool.query(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs ORDER BY started_at_ms DESC OFFSET ${RUNS_IN_ALL})`,
    );
  }

  private runOf(row: RunRow): StoredRun {
    const startedAtMs = Number(row.started_at_ms);
    const cutAtMs = startedAtMs + this.runMs;
    const finishedAtMs =
      row.finished_at_ms !== null
        ? Number(row.finished_at_ms)
        : this.now() > cutAtMs + CUT_MARGIN_MS
          ? cutAtMs
          : null;
    return {
      id: row.id,
      merchantId: row.merchant_id,
      url: row.url,
      cases: JSON.parse(row.cases) as CaseName[],
      startedAtMs,
      finishedAtMs,
      results: JSON.parse(row.results) as CaseReport[],
    };
  }
}
