-- Every statement that apps/api/src/clock/merchant-clock.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/clock/merchant-clock.repository.ts
SELECT "clock_offset_seconds"
  FROM "merchants"
  WHERE "merchant_id" = $1;

-- apps/api/src/clock/merchant-clock.repository.ts
UPDATE "merchants"
  SET "clock_offset_seconds" = "clock_offset_seconds" + $1
  WHERE "merchant_id" = $2;
