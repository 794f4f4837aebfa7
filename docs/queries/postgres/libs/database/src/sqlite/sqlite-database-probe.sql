-- Every statement that libs/database/src/sqlite/sqlite-database-probe.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-database-probe.ts
SELECT 1;
