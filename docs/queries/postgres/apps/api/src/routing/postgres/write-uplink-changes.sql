-- Every statement that apps/api/src/routing/postgres/write-uplink-changes.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/routing/postgres/write-uplink-changes.ts
WITH closed AS ( DELETE FROM terminal_uplinks WHERE replica_id = $1 AND replica_epoch = $2 AND serial_number = ANY($3::varchar[])) INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at) SELECT s, $4::varchar, $5::bigint, now()
  FROM unnest($6::varchar[]) AS s
  ON CONFLICT (serial_number) DO UPDATE
  SET replica_id = $7, replica_epoch = $8, linked_at = now();
