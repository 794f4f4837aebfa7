-- Every statement that apps/api/src/routing/postgres/postgres-replica-rows.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/routing/postgres/postgres-replica-rows.ts
DELETE
  FROM api_replicas
  WHERE id = $1 AND epoch = $2;

-- apps/api/src/routing/postgres/postgres-replica-rows.ts (not parameterised: numbers written into the text, shown as <n>)
INSERT INTO api_replicas (id, epoch, started_at, heartbeat_at)
  VALUES ($1, <n>, now(), now())
  ON CONFLICT (id) DO UPDATE
  SET epoch = api_replicas.epoch + 1, started_at = now(), heartbeat_at = now()
  RETURNING epoch;

-- apps/api/src/routing/postgres/postgres-replica-rows.ts
UPDATE api_replicas
  SET heartbeat_at = now()
  WHERE id = $1 AND epoch = $2;
