-- Every statement that apps/api/src/routing/replica-routing.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/routing/replica-routing.ts
SELECT *
  FROM current_schema();

-- apps/api/src/routing/replica-routing.ts
SELECT version();
