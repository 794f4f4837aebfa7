import type { Pool } from 'pg';
import type { ReplicaRows } from '../routing-ports';

export class PostgresReplicaRows implements ReplicaRows {
  constructor(private readonly pool: Pick<Pool, 'query'>) {}

  async join(id: string): Promise<number> {
    const { rows } = await this.pool.query<{ epoch: string | number }>(
      `INSERT INTO api_replicas (id, epoch, started_at, heartbeat_at) VALUES ($1, 1, now(), now())
       ON CONFLICT (id) DO UPDATE SET epoch = api_replicas.epoch + 1, started_at = now(), heartbeat_at = now()
       RETURNING epoch`,
      [id],
    );
    return Number(rows[0].epoch);
  }

  async beat(id: string, epoch: number): Promise<void> {
    await this.pool.query('UPDATE api_replicas SET heartbeat_at = now() WHERE id = $1 AND epoch = $2', [
      id,
      epoch,
    ]);
  }

  async leave(id: string, epoch: number): Promise<void> {
    await this.pool.query('DELETE FROM api_replicas WHERE id = $1 AND epoch = $2', [id, epoch]);
  }
}
