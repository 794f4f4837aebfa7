-- Every statement that apps/api/src/auth/merchant.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/auth/merchant.repository.ts
INSERT INTO "merchants" ("merchant_id", "secret_key", "bound_terminal_serial", "webhook_secret", "clock_offset_seconds")
  VALUES ($1, $2, $3, $4, $5);

-- apps/api/src/auth/merchant.repository.ts
INSERT INTO "terminals" ("serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);
