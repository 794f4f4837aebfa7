-- Every statement that apps/api/src/terminals/terminal.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number"
  FROM "terminals"
  WHERE "offline" = $1;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  ORDER BY "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "cardholder" = $1
  ORDER BY "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = $1 AND "serial_number" = $2
  LIMIT <n>;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = $1
  ORDER BY "created_at" ASC, "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "serial_number" IN ($1, …);

-- apps/api/src/terminals/terminal.repository.ts
SELECT COUNT(*) AS count
  FROM "terminals";

-- apps/api/src/terminals/terminal.repository.ts
SELECT COUNT(*) AS count
  FROM "terminals"
  WHERE "offline" = $1;

-- apps/api/src/terminals/terminal.repository.ts
UPDATE "terminals"
  SET "merchant_id" = $1, "model" = $2, "wifi_mac" = $3, "room" = $4, "pace" = $5, "printer" = $6, "offline" = $7, "cardholder" = $8, "cardholder_set_at" = $9, "cardholder_set_from" = $10
  WHERE "serial_number" = $11;
