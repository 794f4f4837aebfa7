-- Every statement that libs/database/src/postgres/postgres-merchant-activity.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/postgres/postgres-merchant-activity.ts
UPDATE merchants
  SET last_active_at_ms = $1
  WHERE merchant_id = $2;
