-- Every statement that libs/database/src/sqlite/sqlite-merchant-lookup.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-merchant-lookup.ts
SELECT 1 AS one
  FROM "merchants"
  WHERE "merchant_id" = ?;

-- libs/database/src/sqlite/sqlite-merchant-lookup.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT m."merchant_id" AS "m_merchant_id", m."secret_key" AS "m_secret_key", m."bound_terminal_serial" AS "m_bound_terminal_serial", m."webhook_secret" AS "m_webhook_secret", m."previous_webhook_secret" AS "m_previous_webhook_secret", m."previous_webhook_secret_until" AS "m_previous_webhook_secret_until", m."clock_offset_seconds" AS "m_clock_offset_seconds", m."created_at" AS "m_created_at", t."serial_number" AS "t_serial_number", t."merchant_id" AS "t_merchant_id", t."model" AS "t_model", t."wifi_mac" AS "t_wifi_mac", t."room" AS "t_room", t."pace" AS "t_pace", t."printer" AS "t_printer", t."offline" AS "t_offline", t."cardholder" AS "t_cardholder", t."cardholder_set_at" AS "t_cardholder_set_at", t."cardholder_set_from" AS "t_cardholder_set_from", t."created_at" AS "t_created_at"
  FROM "merchants" m
  LEFT
  JOIN "terminals" t ON t."merchant_id" = m."merchant_id" AND t."serial_number" = COALESCE(?, m."bound_terminal_serial")
  WHERE m."merchant_id" = ?
  LIMIT <n>;
