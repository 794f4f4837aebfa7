-- Every statement that apps/api/src/auth/merchant.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/auth/merchant.repository.ts (not parameterised: numbers written into the text, shown as <n>)
INSERT INTO "merchants"("merchant_id", "secret_key", "bound_terminal_serial", "webhook_secret", "previous_webhook_secret", "previous_webhook_secret_until", "clock_offset_seconds", "created_at")
  VALUES (?, ?, ?, ?, NULL, NULL, <n>, datetime('now'));

-- apps/api/src/auth/merchant.repository.ts (not parameterised: numbers written into the text, shown as <n>)
INSERT INTO "terminals"("serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at")
  VALUES (?, ?, ?, ?, ?, ?, ?, <n>, ?, NULL, NULL, datetime('now'));

-- apps/api/src/auth/merchant.repository.ts
SELECT "MerchantEntity"."merchant_id" AS "MerchantEntity_merchant_id", "MerchantEntity"."clock_offset_seconds" AS "MerchantEntity_clock_offset_seconds", "MerchantEntity"."created_at" AS "MerchantEntity_created_at"
  FROM "merchants" "MerchantEntity"
  WHERE "MerchantEntity"."merchant_id" = ?;

-- apps/api/src/auth/merchant.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE "TerminalEntity"."serial_number" = ?;

-- apps/api/src/auth/merchant.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE ("TerminalEntity"."serial_number" = ? OR "TerminalEntity"."serial_number" = ?);
