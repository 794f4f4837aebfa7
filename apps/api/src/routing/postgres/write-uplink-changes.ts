import type { Pool } from 'pg';
import type { ThisReplica } from '../this-replica';

/**
 * Stores a batch of this replica's uplink changes (each serial: true opened, false closed, as it
 * stands after the batch's last change) in one statement, so that thousands of terminals linking
 * at once (a replica died and its fleet moved here) cost a few round trips, not one each.
 * A close removes only this replica's row: the terminal may have linked to another one meanwhile.
 */
export async function writeUplinkChanges(
  pool: Pick<Pool, 'query'>,
  replica: ThisReplica,
  changes: ReadonlyMap<string, boolean>,
): Promise<void> {
  const opened: string[] = [];
  const closed: string[] = [];
  for (const [serial, open] of changes) (open ? opened : closed).push(serial);
  // Each serial is in one list only, so the two parts touch different rows of the same snapshot.
  await pool.query(
    `WITH closed AS (
       DELETE FROM terminal_uplinks WHERE replica_id = $1 AND replica_epoch = $2
         AND serial_number = ANY($4::varchar[]))
     INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at)
     SELECT s, $1::varchar, $2::bigint, now() FROM unnest($3::varchar[]) AS s
     ON CONFLICT (serial_number) DO UPDATE SET replica_id = $1, replica_epoch = $2, linked_at = now()`,
    [replica.id, replica.epoch, opened, closed],
  );
}
