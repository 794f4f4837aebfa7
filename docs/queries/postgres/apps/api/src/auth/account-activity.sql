-- Every statement that apps/api/src/auth/account-activity.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/auth/account-activity.ts
UPDATE merchants
  SET last_active_at_ms = $1
  WHERE merchant_id = $2;
