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
SELECT "key", "serial_number", "order", "status", "outcome", "created_at"
  FROM "terminal_transactions"
  WHERE "serial_number" = ? AND "status" = ?;

-- apps/terminal-simulator/src/store/terminal-store.ts
UPDATE "terminal_transactions"
  SET "status" = ?, "outcome" = ?
  WHERE "key" = ?;
