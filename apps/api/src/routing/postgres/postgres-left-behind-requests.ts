import type { DataSource } from 'typeorm';
import { sqlOf } from '@tps/database';
import type { LeftBehindRequests } from '../routing-ports';

export class PostgresLeftBehindRequests implements LeftBehindRequests {
  constructor(private readonly dataSource: DataSource) {}

  remove(afterMs: number, limit: number): Promise<number> {
    return sqlOf(this.dataSource.manager).run(
      `DELETE FROM routed_requests WHERE id IN (
         SELECT id FROM routed_requests
         WHERE created_at < now() - (timeout_ms + ?) * interval '1 millisecond' LIMIT ?)`,
      [afterMs, limit],
    );
  }
}
