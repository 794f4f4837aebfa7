-- Every statement that libs/database/src/sqlite/sqlite-terminal-history-rows.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-terminal-history-rows.ts
SELECT e."seq" AS "seq", e."serial_number" AS "serial_number", e."transaction_key" AS "transaction_key", e."event_id" AS "event_id", e."envelope" AS "envelope", e."outcome" AS "outcome", e."acked" AS "acked"
  FROM "terminal_events" e
  WHERE e."transaction_key" IN (?, …)
  ORDER BY e."seq";

-- libs/database/src/sqlite/sqlite-terminal-history-rows.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT t."key" AS "key", t."serial_number" AS "serial_number", t."order" AS "order", t."status" AS "status", t."outcome" AS "outcome", t."created_at" AS "created_at"
  FROM "terminal_transactions" t
  WHERE t."serial_number" = ? AND substr(t."key", <n>, ?) = ?
  ORDER BY t."created_at" DESC, t."key" DESC
  LIMIT ?;
