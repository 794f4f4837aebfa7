-- Every statement that apps/api/src/routing/postgres/postgres-routing-store.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/routing/postgres/postgres-routing-store.ts (not parameterised: numbers written into the text, shown as <n>)
UPDATE routed_requests
  SET state = 'taken'
  WHERE id IN (SELECT id FROM routed_requests WHERE replica_id = $1 AND replica_epoch = $2 AND state = 'pending' AND created_at + timeout_ms * interval '1 millisecond' > now() LIMIT <n> FOR UPDATE SKIP LOCKED, …)
  RETURNING id, link, serial_number, request, timeout_ms;
