-- Every statement that apps/api/src/clock/merchant-clock.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/clock/merchant-clock.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "MerchantEntity"."merchant_id" AS "MerchantEntity_merchant_id", "MerchantEntity"."secret_key" AS "MerchantEntity_secret_key", "MerchantEntity"."bound_terminal_serial" AS "MerchantEntity_bound_terminal_serial", "MerchantEntity"."webhook_secret" AS "MerchantEntity_webhook_secret", "MerchantEntity"."previous_webhook_secret" AS "MerchantEntity_previous_webhook_secret", "MerchantEntity"."previous_webhook_secret_until" AS "MerchantEntity_previous_webhook_secret_until", "MerchantEntity"."clock_offset_seconds" AS "MerchantEntity_clock_offset_seconds", "MerchantEntity"."created_at" AS "MerchantEntity_created_at"
  FROM "merchants" "MerchantEntity"
  WHERE (("MerchantEntity"."merchant_id" = ?))
  LIMIT <n>;

-- apps/api/src/clock/merchant-clock.repository.ts
UPDATE "merchants"
  SET "clock_offset_seconds" = "clock_offset_seconds" + 42189
  WHERE "merchant_id" = ?;

-- apps/api/src/clock/merchant-clock.repository.ts
UPDATE "merchants"
  SET "clock_offset_seconds" = "clock_offset_seconds" + 42196
  WHERE "merchant_id" = ?;

-- apps/api/src/clock/merchant-clock.repository.ts
UPDATE "merchants"
  SET "clock_offset_seconds" = "clock_offset_seconds" + 42203
  WHERE "merchant_id" = ?;

-- apps/api/src/clock/merchant-clock.repository.ts
UPDATE "merchants"
  SET "clock_offset_seconds" = "clock_offset_seconds" + 42210
  WHERE "merchant_id" = ?;
