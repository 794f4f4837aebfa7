import { sqlOf, type SerialWriter } from '@tps/database';
import type { HeldLinks } from '../routing-ports';
import type { ThisReplica } from '../this-replica';

/** The row of `table` that an upsert meets is stored for a replica that is not alive (`?`: the lapse). */
const HOLDER_DEAD = (table: string): string => `NOT EXISTS (
  SELECT 1 FROM api_replicas r WHERE r.id = ${table}.replica_id AND r.epoch = ${table}.replica_epoch
    AND r.heartbeat_at > now() - ? * interval '1 millisecond')`;

/**
 * Makes the stored holders agree with the links this replica holds, in one transaction: its rows
 * for links it no longer holds go, and the links it holds are stored as its own, unless another
 * live replica is stored as holding them (that one linked later, or it lost the link while the
 * database was away and its own rewrite has yet to remove its row). What a replica could not
 * write while its database was away is written so once it is back. Resolves whether every link
 * held here is stored as its own.
 */
export function rewriteHolders(
  writer: SerialWriter,
  replica: ThisReplica,
  held: HeldLinks,
): Promise<boolean> {
  const serials = [...held.uplinks];
  const shares = [...held.controls.keys()];
  const grants = [...held.controls.values()];
  const mine = [replica.id, replica.epoch];
  return writer.write(async (manager) => {
    const sql = sqlOf(manager);
    await sql.run(
      `DELETE FROM terminal_uplinks WHERE replica_id = ? AND replica_epoch = ?
         AND NOT (serial_number = ANY(?::varchar[]))`,
      [...mine, serials],
    );
    await sql.run(
      `DELETE FROM share_holders WHERE replica_id = ? AND replica_epoch = ? AND NOT (share = ANY(?::varchar[]))`,
      [...mine, shares],
    );
    await sql.run(
      `INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at)
       SELECT s, ?::varchar, ?::bigint, now() FROM unnest(?::varchar[]) AS s
       ON CONFLICT (serial_number) DO UPDATE SET replica_id = ?, replica_epoch = ?, linked_at = now()
       WHERE ${HOLDER_DEAD('terminal_uplinks')}`,
      [...mine, serials, ...mine, replica.lapseMs],
    );
    await sql.run(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since)
       SELECT g.share, g.instance, g.epoch, ?::varchar, ?::bigint, now()
       FROM unnest(?::varchar[], ?::varchar[], ?::bigint[]) AS g (share, instance, epoch)
       ON CONFLICT (share) DO UPDATE SET instance = EXCLUDED.instance, epoch = EXCLUDED.epoch,
         replica_id = ?, replica_epoch = ?, since = now()
       WHERE (share_holders.replica_id = ? AND share_holders.replica_epoch = ?
           AND (share_holders.instance, share_holders.epoch) IS DISTINCT FROM (EXCLUDED.instance, EXCLUDED.epoch))
         OR ${HOLDER_DEAD('share_holders')}`,
      [
        ...mine,
        shares,
        grants.map((grant) => grant.instance),
        grants.map((grant) => grant.epoch),
        ...mine,
        ...mine,
        replica.lapseMs,
      ],
    );
    const [{ stored }] = await sql.all<{ stored: string }>(
      `SELECT (SELECT count(*) FROM terminal_uplinks
                WHERE replica_id = ? AND replica_epoch = ? AND serial_number = ANY(?::varchar[]))
            + (SELECT count(*) FROM share_holders
                WHERE replica_id = ? AND replica_epoch = ? AND share = ANY(?::varchar[])) AS stored`,
      [...mine, serials, ...mine, shares],
    );
    return Number(stored) === serials.length + shares.length;
  });
}
