import type { DataSource } from 'typeorm';
import { sqlOf, type SqlValue } from '@tps/database';
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

/** The advisory lock a run's begin holds (MIGRATION_LOCK_KEY's neighbour, no other use). */
const BEGIN_LOCK_KEY = 1_795_336_101;

function valuesOf(run: StoredRun): SqlValue[] {
  return [
    run.id,
    run.merchantId,
    run.clientAddress,
    run.url,
    JSON.stringify(run.cases),
    run.startedAtMs,
    run.finishedAtMs,
    JSON.stringify(run.results),
  ];
}

/** conformance_runs: a run's cases and results as JSON text, its times as bigints. */
export class PostgresRunRows implements RunRows {
  constructor(private readonly dataSource: DataSource) {}

  async insertIfAdmitted(
    run: StoredRun,
    sinceMs: number,
    admit: (running: StoredRun[]) => void,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Held to the transaction's end: the begins of every replica, one after another.
      await sqlOf(manager).run('SELECT pg_advisory_xact_lock(?)', [BEGIN_LOCK_KEY]);
      const running = await sqlOf(manager).all<RunRow>(
        `SELECT ${COLUMNS} FROM conformance_runs WHERE finished_at_ms IS NULL AND started_at_ms > ?`,
        [sinceMs],
      );
      admit(running.map(runOf));
      await sqlOf(manager).run(
        `INSERT INTO conformance_runs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        valuesOf(run),
      );
    });
  }

  async put(run: StoredRun): Promise<void> {
    await sqlOf(this.dataSource.manager).run(
      `INSERT INTO conformance_runs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET finished_at_ms = EXCLUDED.finished_at_ms, results = EXCLUDED.results`,
      valuesOf(run),
    );
  }

  async trim(merchantId: string, perAccount: number, inAll: number): Promise<void> {
    await sqlOf(this.dataSource.manager).run(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs WHERE merchant_id = ? ORDER BY started_at_ms DESC OFFSET ?)`,
      [merchantId, perAccount],
    );
    await sqlOf(this.dataSource.manager).run(
      `DELETE FROM conformance_runs WHERE id IN (
         SELECT id FROM conformance_runs ORDER BY started_at_ms DESC OFFSET ?)`,
      [inAll],
    );
  }

  async get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    const rows = await sqlOf(this.dataSource.manager).all<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE id = ? AND merchant_id = ?`,
      [id, merchantId],
    );
    return rows[0] === undefined ? undefined : runOf(rows[0]);
  }

  async newest(merchantId: string, limit: number): Promise<StoredRun[]> {
    const rows = await sqlOf(this.dataSource.manager).all<RunRow>(
      `SELECT ${COLUMNS} FROM conformance_runs WHERE merchant_id = ?
       ORDER BY started_at_ms DESC LIMIT ?`,
      [merchantId, limit],
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
