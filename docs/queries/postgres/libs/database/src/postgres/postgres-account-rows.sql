-- Every statement that libs/database/src/postgres/postgres-account-rows.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/postgres/postgres-account-rows.ts
SELECT merchant_id
  FROM merchants
  WHERE merchant_id = $1
  FOR UPDATE;
