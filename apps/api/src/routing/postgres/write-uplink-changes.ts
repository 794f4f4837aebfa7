import type { EntityManager } from 'typeorm';
import { sqlOf } from '@tps/database';
import type { ThisReplica } from '../this-replica';

/**
 * Stores a batch of this replica's uplink changes (each serial: true opened, false closed, as it
 * stands after the batch's last change) in one statement, so that thousands of terminals linking
 * at once (a replica died and its fleet moved here) cost a few round trips, not one each.
 * A close removes only this replica's row: the terminal may have linked to another one meanwhile.
 */
export async function writeUplinkChanges(
  manager: EntityManager,
  replica: ThisReplica,
  changes: ReadonlyMap<string, boolean>,
): Promise<void> {
  const opened: string[] = [];
  const closed: string[] = [];
  for (const [serial, open] of changes) (open ? opened : closed).push(serial);
  const mine = [replica.id, replica.epoch];
  // Each serial is in one list only, so the two parts touch different rows of the same snapshot.
  await sqlOf(manager).run(
    `WITH closed AS (
       DELETE FROM terminal_uplinks WHERE replica_id = ? AND replica_epoch = ?
         AND serial_number = ANY(?::varchar[]))
     INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at)
     SELECT s, ?::varchar, ?::bigint, now() FROM unnest(?::varchar[]) AS s
     ON CONFLICT (serial_number) DO UPDATE SET replica_id = ?, replica_epoch = ?, linked_at = now()`,
    [...mine, closed, ...mine, opened, ...mine],
  );
}
