-- Every statement that apps/api/src/terminals/terminal.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/terminals/terminal.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  ORDER BY "TerminalEntity"."serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE "TerminalEntity"."serial_number" IN (?, …);

-- apps/api/src/terminals/terminal.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE (("TerminalEntity"."cardholder" = ?))
  ORDER BY "TerminalEntity"."serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE (("TerminalEntity"."merchant_id" = ?))
  ORDER BY "TerminalEntity"."created_at" ASC, "TerminalEntity"."serial_number" ASC;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "TerminalEntity"."serial_number" AS "TerminalEntity_serial_number", "TerminalEntity"."merchant_id" AS "TerminalEntity_merchant_id", "TerminalEntity"."model" AS "TerminalEntity_model", "TerminalEntity"."wifi_mac" AS "TerminalEntity_wifi_mac", "TerminalEntity"."room" AS "TerminalEntity_room", "TerminalEntity"."pace" AS "TerminalEntity_pace", "TerminalEntity"."printer" AS "TerminalEntity_printer", "TerminalEntity"."offline" AS "TerminalEntity_offline", "TerminalEntity"."cardholder" AS "TerminalEntity_cardholder", "TerminalEntity"."cardholder_set_at" AS "TerminalEntity_cardholder_set_at", "TerminalEntity"."cardholder_set_from" AS "TerminalEntity_cardholder_set_from", "TerminalEntity"."created_at" AS "TerminalEntity_created_at"
  FROM "terminals" "TerminalEntity"
  WHERE (("TerminalEntity"."serial_number" IN (?, …)));

-- apps/api/src/terminals/terminal.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "serial_number", "merchant_id", "model", "wifi_mac", "room", "pace", "printer", "offline", "cardholder", "cardholder_set_at", "cardholder_set_from", "created_at"
  FROM "terminals"
  WHERE "merchant_id" = ? AND "serial_number" = ?
  LIMIT <n>;

-- apps/api/src/terminals/terminal.repository.ts
SELECT "t"."serial_number" AS "serial"
  FROM "terminals" "t"
  WHERE NOT "t"."offline";

-- apps/api/src/terminals/terminal.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT COUNT(<n>) AS "cnt"
  FROM "terminals" "TerminalEntity";

-- apps/api/src/terminals/terminal.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT COUNT(<n>) AS "cnt"
  FROM "terminals" "t"
  WHERE NOT "t"."offline";

-- apps/api/src/terminals/terminal.repository.ts
UPDATE "terminals"
  SET "pace" = ?
  WHERE "serial_number" IN (?, …);
