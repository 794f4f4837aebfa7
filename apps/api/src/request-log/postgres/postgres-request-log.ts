import type { DataSource } from 'typeorm';
import { sqlOf } from '@tps/database';
import type { LoggedRequest, RequestLogStore, RequestToLog } from '../request-log-store';

interface RequestRow {
  at_ms: string | number;
  method: string;
  path: string;
  status: string | number;
  duration_us: string | number;
  request_id: string;
}

/** On the replicas' own data source (routing's): a batch is one INSERT of arrays, then one DELETE of what falls out. */
export class PostgresRequestLog implements RequestLogStore {
  constructor(private readonly dataSource: DataSource) {}

  async append(requests: readonly RequestToLog[], kept: number): Promise<void> {
    await sqlOf(this.dataSource.manager).run(
      `INSERT INTO merchant_requests (id, merchant_id, at_ms, method, path, status, duration_us, request_id)
       SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::bigint[], ?::varchar[], ?::text[], ?::bigint[],
         ?::bigint[], ?::varchar[])
       ON CONFLICT (id) DO NOTHING`,
      [
        requests.map((request) => request.id),
        requests.map((request) => request.merchantId),
        requests.map((request) => request.atMs),
        requests.map((request) => request.method),
        requests.map((request) => request.path),
        requests.map((request) => request.status),
        requests.map((request) => request.durationUs),
        requests.map((request) => request.requestId),
      ],
    );
    const merchants = [...new Set(requests.map((request) => request.merchantId))];
    await sqlOf(this.dataSource.manager).run(
      `DELETE FROM merchant_requests WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY merchant_id ORDER BY at_ms DESC, id) AS n
           FROM merchant_requests WHERE merchant_id = ANY(?::varchar[])) ranked
         WHERE n > ?)`,
      [merchants, kept],
    );
  }

  async recent(merchantId: string, limit: number): Promise<LoggedRequest[]> {
    const rows = await sqlOf(this.dataSource.manager).all<RequestRow>(
      `SELECT at_ms, method, path, status, duration_us, request_id FROM merchant_requests
       WHERE merchant_id = ? ORDER BY at_ms DESC LIMIT ?`,
      [merchantId, limit],
    );
    // bigint columns: node-postgres reads them as strings.
    return rows.map((row) => ({
      atMs: Number(row.at_ms),
      method: row.method,
      path: row.path,
      status: Number(row.status),
      durationUs: Number(row.duration_us),
      requestId: row.request_id,
    }));
  }
}
