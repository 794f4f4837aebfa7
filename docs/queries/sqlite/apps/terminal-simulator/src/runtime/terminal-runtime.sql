-- Every statement that apps/terminal-simulator/src/runtime/terminal-runtime.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/runtime/terminal-runtime.ts
SELECT "t"."key" AS "t_key", "t"."serial_number" AS "t_serial_number", "t"."order" AS "t_order", "t"."status" AS "t_status", "t"."outcome" AS "t_outcome", "t"."created_at" AS "t_created_at"
  FROM "terminal_transactions" "t"
  WHERE "t"."serial_number" = ? AND "t"."status" IN (?, …);
