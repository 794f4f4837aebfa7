-- Every statement that apps/terminal-simulator/src/store/terminal-store.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/store/terminal-store.ts
INSERT INTO "terminal_events" ("serial_number", "transaction_key", "event_id", "envelope", "outcome", "acked") SELECT *
  FROM (VALUES (?, ?, ?, ?, ?, ?)) AS v;

-- apps/terminal-simulator/src/store/terminal-store.ts
INSERT INTO "terminal_events" ("serial_number", "transaction_key", "event_id", "envelope", "outcome", "acked")
  VALUES (?, ?, ?, ?, ?, ?);

-- apps/terminal-simulator/src/store/terminal-store.ts
INSERT INTO "terminal_transactions" ("key", "serial_number", "order", "status", "outcome", "created_at")
  VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT DO NOTHING;

-- apps/terminal-simulator/src/store/terminal-store.ts
SELECT "t"."key" AS "t_key", "t"."serial_number" AS "t_serial_number", "t"."order" AS "t_order", "t"."status" AS "t_status", "t"."outcome" AS "t_outcome", "t"."created_at" AS "t_created_at"
  FROM "terminal_transactions" "t"
  WHERE "t"."serial_number" = ? AND "t"."status" IN (?, …);

-- apps/terminal-simulator/src/store/terminal-store.ts
UPDATE "terminal_transactions"
  SET "status" = ?, "outcome" = ?
  WHERE "key" = ?;
