-- Every statement that apps/terminal-simulator/src/store/terminal-store.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/store/terminal-store.ts
SELECT "key", "serial_number", "order", "status", "outcome", "created_at"
  FROM "terminal_transactions"
  WHERE "serial_number" = $1 AND "status" = $2;

-- apps/terminal-simulator/src/store/terminal-store.ts
WITH s0 AS (INSERT INTO "terminal_transactions" ("key", "serial_number", "order", "status", "outcome", "created_at") VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1), s1 AS (INSERT INTO "terminal_events" ("serial_number", "transaction_key", "event_id", "envelope", "outcome", "acked") SELECT * FROM (VALUES (CAST($7 AS character varying), CAST($8 AS character varying), CAST($9 AS character varying), CAST($10 AS text), CAST($11 AS text), CAST($12 AS boolean))) AS v WHERE EXISTS (SELECT 1 FROM s0) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/terminal-simulator/src/store/terminal-store.ts
WITH s0 AS (UPDATE "terminal_transactions" SET "status" = $1, "outcome" = $2 WHERE "key" = $3 RETURNING 1), s1 AS (INSERT INTO "terminal_events" ("serial_number", "transaction_key", "event_id", "envelope", "outcome", "acked") VALUES ($4, $5, $6, $7, $8, $9) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;
