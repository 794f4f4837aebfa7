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
SELECT "serial_number"
  FROM "terminals"
  WHERE "merchant_id" = $1;

-- apps/api/src/accounts/account.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = $1
  ORDER BY "created_at" ASC, "serial_number" ASC;
