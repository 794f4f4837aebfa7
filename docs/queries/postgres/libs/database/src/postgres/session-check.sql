-- Every statement that libs/database/src/postgres/session-check.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/postgres/session-check.ts
BEGIN; SELECT pg_backend_pid() AS pid;

-- libs/database/src/postgres/session-check.ts
COMMIT;

-- libs/database/src/postgres/session-check.ts
SELECT pg_backend_pid() AS pid;
