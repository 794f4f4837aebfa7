-- Every statement that apps/api/src/webhooks/postgres/postgres-replica-bodies.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/webhooks/postgres/postgres-replica-bodies.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT 1
  FROM api_replicas
  WHERE heartbeat_at > now() - $1 * interval '1 millisecond' AND event_bodies_epoch IS DISTINCT
  FROM epoch
  LIMIT <n>;

-- apps/api/src/webhooks/postgres/postgres-replica-bodies.ts
UPDATE api_replicas
  SET event_bodies_epoch = epoch
  WHERE id = $1 AND epoch = $2;
