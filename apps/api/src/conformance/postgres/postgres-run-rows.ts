import type { Pool } from 'pg';
import type { CaseName } from '../conformance-cases';
import type { CaseReport } from '../conformance-report';
import type { RunRows } from '../run-rows';
import type { StoredRun } from '../run-store';

interface RunRow {
  id: string;
  merchant_id: string;
  client_address: string | null;
  url: string;
  cases: string;
  started_at_ms: string | number;
  finished_at_ms: string | number | null;
  results: string;
}

const COLUMNS = 'id, merchant_id, client_address, url, cases, started_at_ms, finished_at_ms, results';

/** conformance_runs: a run's cases and results as JSON text, its times as bigints. */
export class PostgresRunRows implements RunRows {
  constructor(private readonly pool: Pool) {}

  async put(run: StoredRun): Promise<void> {
    await this.pool.query(
      `INSERT INTO conformance_runs (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET finished_at_ms = EXCLUDED.finished_at_ms, results = EXCLUDED.results`,
      [
        run.id,
        run.merchantId,
        run.clientAddress,
        run.url,
        JSON.stringify(run.cases),
        run.startedAtMs,
        run.finishedAtMs,
        JSON.stringify(run.results),
      ],
    );
  }

  async trim(merchantId: string, perAccount: number, inAll: number): Promise<void> {
    await this.pool.query(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs WHERE merchant_id = $1 ORDER BY started_at_ms DESC OFFSET $2)`,
      [merchantId, perAccount],
    );
    await this.pool.query(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs ORDER BY started_at_ms DESC OFFSET $1)`,
      [inAll],
    );
  }

  async get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE id = $1 AND merchant_id = $2`,
      [id, merchantId],
    );
    return rows[0] === undefined ? undefined : runOf(rows[0]);
  }

  async newest(merchantId: string, limit: number): Promise<StoredRun[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE merchant_id = $1
       ORDER BY started_at_ms DESC LIMIT $2`,
      [merchantId, limit],
    );
    return rows.map(runOf);
  }

  async unfinishedSince(sinceMs: number): Promise<StoredRun[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE finished_at_ms IS NULL AND started_at_ms > $1`,
      [sinceMs],
    );
    return rows.map(runOf);
  }
}

function runOf(row: RunRow): StoredRun {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    clientAddress: row.client_address,
    url: row.url,
    cases: JSON.parse(row.cases) as CaseName[],
    startedAtMs: Number(row.started_at_ms),
    finishedAtMs: row.finished_at_ms === null ? null : Number(row.finished_at_ms),
    results: JSON.parse(row.results) as CaseReport[],
  };
}
