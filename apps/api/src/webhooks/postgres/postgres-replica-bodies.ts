import type { DataSource } from 'typeorm';
import { sqlOf } from '@tps/database';
import type { ThisReplica } from '../../routing/this-replica';
import type { ReplicaBodies } from '../replica-bodies';

/**
 * Replicas that say nothing of reading bodies from events, alive: those of the version before,
 * which send a delivery's `payload` as it is.
 */
const OLDER_REPLICA_ALIVE = `SELECT 1 FROM api_replicas
  WHERE heartbeat_at > now() - ? * interval '1 millisecond' AND event_bodies_epoch IS DISTINCT FROM epoch LIMIT 1`;

/** The bodies of pending deliveries stored without one, for a replica that reads only `payload`. */
const FILL_PENDING = `UPDATE webhook_deliveries d SET payload = e.envelope FROM transaction_events e
  WHERE d.state = 'pending' AND d.payload = '' AND e.event_id = d.event_id`;

/** On the replicas' own data source (routing's), each a statement of its own. */
export class PostgresReplicaBodies implements ReplicaBodies {
  constructor(
    private readonly dataSource: DataSource,
    private readonly replica: Pick<ThisReplica, 'id' | 'epoch'>,
  ) {}

  async advertise(): Promise<void> {
    await sqlOf(this.dataSource.manager).run(
      'UPDATE api_replicas SET event_bodies_epoch = epoch WHERE id = ? AND epoch = ?',
      [this.replica.id, this.replica.epoch],
    );
  }

  async olderAlive(aliveMs: number): Promise<boolean> {
    const rows = await sqlOf(this.dataSource.manager).all(OLDER_REPLICA_ALIVE, [aliveMs]);
    return rows.length > 0;
  }

  async fillPending(): Promise<number> {
    return sqlOf(this.dataSource.manager).run(FILL_PENDING, []);
  }
}
