import type { DataSource } from 'typeorm';
import { sqlOf } from '@tps/database';
import type { ReplicaRows } from '../routing-ports';

export class PostgresReplicaRows implements ReplicaRows {
  constructor(private readonly dataSource: DataSource) {}

  async join(id: string): Promise<number> {
    const [row] = await sqlOf(this.dataSource.manager).all<{ epoch: string | number }>(
      `INSERT INTO api_replicas (id, epoch, started_at, heartbeat_at) VALUES (?, 1, now(), now())
       ON CONFLICT (id) DO UPDATE SET epoch = api_replicas.epoch + 1, started_at = now(), heartbeat_at = now()
       RETURNING epoch`,
      [id],
    );
    return Number(row.epoch);
  }

  async beat(id: string, epoch: number): Promise<void> {
    await sqlOf(this.dataSource.manager).run(
      'UPDATE api_replicas SET heartbeat_at = now() WHERE id = ? AND epoch = ?',
      [id, epoch],
    );
  }

  async leave(id: string, epoch: number): Promise<void> {
    await sqlOf(this.dataSource.manager).run('DELETE FROM api_replicas WHERE id = ? AND epoch = ?', [
      id,
      epoch,
    ]);
  }
}
