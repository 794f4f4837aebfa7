import type { Pool } from 'pg';
import type { HeldLinks } from '../routing-ports';
import type { ThisReplica } from '../this-replica';

/** The row of `table` that an upsert meets is stored for a replica that is not alive. */
const HOLDER_DEAD = (table: string): string => `NOT EXISTS (
  SELECT 1 FROM api_replicas r WHERE r.id = ${table}.replica_id AND r.epoch = ${table}.replica_epoch
    AND r.heartbeat_at > now() - $3 * interval '1 millisecond')`;

/**
 * Makes the stored holders agree with the links this replica holds, in one transaction: its rows
 * for links it no longer holds go, and the links it holds are stored as its own, unless another
 * live replica is stored as holding them (that one linked later). What a replica could not write
 * while its database was away is written so once it is back.
 */
export async function rewriteHolders(pool: Pool, replica: ThisReplica, held: HeldLinks): Promise<void> {
  const serials = [...held.uplinks];
  const shares = [...held.controls.keys()];
  const grants = [...held.controls.values()];
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const mine = [replica.id, replica.epoch];
    await client.query(
      `DELETE FROM terminal_uplinks WHERE replica_id = $1 AND replica_epoch = $2
         AND NOT (serial_number = ANY($3::varchar[]))`,
      [...mine, serials],
    );
    await client.query(
      `DELETE FROM share_holders WHERE replica_id = $1 AND replica_epoch = $2 AND NOT (share = ANY($3::varchar[]))`,
      [...mine, shares],
    );
    await client.query(
      `INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at)
       SELECT s, $1::varchar, $2::bigint, now() FROM unnest($4::varchar[]) AS s
       ON CONFLICT (serial_number) DO UPDATE SET replica_id = $1, replica_epoch = $2, linked_at = now()
       WHERE ${HOLDER_DEAD('terminal_uplinks')}`,
      [...mine, replica.lapseMs, serials],
    );
    await client.query(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since)
       SELECT g.share, g.instance, g.epoch, $1::varchar, $2::bigint, now()
       FROM unnest($4::varchar[], $5::varchar[], $6::bigint[]) AS g (share, instance, epoch)
       ON CONFLICT (share) DO UPDATE SET instance = EXCLUDED.instance, epoch = EXCLUDED.epoch,
         replica_id = $1, replica_epoch = $2, since = now()
       WHERE (share_holders.replica_id = $1 AND share_holders.replica_epoch = $2
           AND (share_holders.instance, share_holders.epoch) IS DISTINCT FROM (EXCLUDED.instance, EXCLUDED.epoch))
         OR ${HOLDER_DEAD('share_holders')}`,
      [
        ...mine,
        replica.lapseMs,
        shares,
        grants.map((grant) => grant.instance),
        grants.map((grant) => grant.epoch),
      ],
    );
    await client.query('COMMIT');
  } catch (error) {
    // A session the server ended is not given back to the pool.
    broken = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release(broken);
  }
}
