-- Every statement that apps/api/src/terminals/terminal.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number"
  FROM "terminals"
  WHERE "offline" = ?;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  ORDER BY "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "cardholder" = ?
  ORDER BY "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = ? AND "serial_number" = ?
  LIMIT <n>;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = ?
  ORDER BY "created_at" ASC, "serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "serial_number" IN (?, …);

-- apps/api/src/terminals/terminal.repository.ts
SELECT COUNT(*) AS count
  FROM "terminals";

-- apps/api/src/terminals/terminal.repository.ts
SELECT COUNT(*) AS count
  FROM "terminals"
  WHERE "offline" = ?;

-- apps/api/src/terminals/terminal.repository.ts
UPDATE "terminals"
  SET "merchant_id" = ?, "model" = ?, "wifi_mac" = ?, "room" = ?, "pace" = ?, "printer" = ?, "offline" = ?, "cardholder" = ?, "cardholder_set_at" = ?, "cardholder_set_from" = ?
  WHERE "serial_number" = ?;
