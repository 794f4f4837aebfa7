-- Every statement that apps/api/src/routing/postgres/postgres-link-holders.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/routing/postgres/postgres-link-holders.ts
DELETE
  FROM share_holders
  WHERE share = $1 AND replica_id = $2 AND replica_epoch = $3;

-- apps/api/src/routing/postgres/postgres-link-holders.ts
INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since)
  VALUES ($1, $2, $3, $4, $5, now())
  ON CONFLICT (share) DO UPDATE
  SET instance = $6, epoch = $7, replica_id = $8, replica_epoch = $9, since = now();

-- apps/api/src/routing/postgres/postgres-link-holders.ts
SELECT o.serial_number, o.linked_at::text AS linked_at
  FROM terminal_uplinks o
  JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
  WHERE r.heartbeat_at > now() - $1 * interval '1 millisecond' AND o.serial_number = ANY($2::varchar[]);
