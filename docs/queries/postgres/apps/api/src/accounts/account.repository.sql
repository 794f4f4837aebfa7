-- Every statement that apps/api/src/accounts/account.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/accounts/account.repository.ts
DELETE
  FROM "merchants"
  WHERE "merchant_id" = $1;

-- apps/api/src/accounts/account.repository.ts
DELETE
  FROM "terminals"
  WHERE "merchant_id" = $1;

-- apps/api/src/accounts/account.repository.ts
INSERT INTO "merchants" ("merchant_id", "secret_key", "bound_terminal_serial", "webhook_secret", "clock_offset_seconds")
  VALUES ($1, $2, $3, $4, $5);

-- apps/api/src/accounts/account.repository.ts
INSERT INTO "terminals" ("serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- apps/api/src/accounts/account.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE (("TerminalEntity"."merchant_id" = $1))
  ORDER BY "TerminalEntity"."created_at" ASC, "TerminalEntity"."serial_number" ASC;
