-- Every statement that libs/messaging/src/postgres/postgres-connector.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/messaging/src/postgres/postgres-connector.ts
LISTEN tps_messages;

-- libs/messaging/src/postgres/postgres-connector.ts
SELECT pg_notify('tps_messages', $1);

-- libs/messaging/src/postgres/postgres-connector.ts
SET synchronous_commit = off;
