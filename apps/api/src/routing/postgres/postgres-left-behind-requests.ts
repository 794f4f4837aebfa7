import type { Pool } from 'pg';
import type { LeftBehindRequests } from '../routing-ports';

export class PostgresLeftBehindRequests implements LeftBehindRequests {
  constructor(private readonly pool: Pick<Pool, 'query'>) {}

  async remove(afterMs: number, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM routed_requests WHERE id IN (
         SELECT id FROM routed_requests
         WHERE created_at < now() - (timeout_ms + $1) * interval '1 millisecond' LIMIT $2)`,
      [afterMs, limit],
    );
    return rowCount ?? 0;
  }
}
