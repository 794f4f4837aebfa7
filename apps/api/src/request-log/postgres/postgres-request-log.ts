import type { Pool } from 'pg';
import type { LoggedRequest, RequestLogStore, RequestToLog } from '../request-log-store';

interface RequestRow {
  at_ms: string | number;
  method: string;
  path: string;
  status: string | number;
  duration_us: string | number;
  request_id: string;
}

/** On the replicas' shared pool: a batch is one INSERT of arrays, then one DELETE of what falls out. */
export class PostgresRequestLog implements RequestLogStore {
  constructor(private readonly pool: Pick<Pool, 'query'>) {}

  async append(requests: readonly RequestToLog[], kept: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO merchant_requests (id, merchant_id, at_ms, method, path, status, duration_us, request_id)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::varchar[], $5::text[], $6::bigint[],
         $7::bigint[], $8::varchar[])
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
    await this.pool.query(
      `DELETE FROM merchant_requests WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY merchant_id ORDER BY at_ms DESC, id) AS n
           FROM merchant_requests WHERE merchant_id = ANY($1::varchar[])) ranked
         WHERE n > $2)`,
      [merchants, kept],
    );
  }

  async recent(merchantId: string, limit: number): Promise<LoggedRequest[]> {
    const { rows } = await this.pool.query<RequestRow>(
      `SELECT at_ms, method, path, status, duration_us, request_id FROM merchant_requests
       WHERE merchant_id = $1 ORDER BY at_ms DESC LIMIT $2`,
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
