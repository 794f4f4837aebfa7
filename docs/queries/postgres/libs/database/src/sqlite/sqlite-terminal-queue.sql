-- Every statement that libs/database/src/sqlite/sqlite-terminal-queue.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-terminal-queue.ts
SELECT e."seq" AS seq, e."envelope" AS envelope, e."outcome" AS outcome, t."order" AS "order"
  FROM "terminal_events" e
  LEFT
  JOIN "terminal_transactions" t ON t."key" = e."transaction_key"
  WHERE e."serial_number" = $1 AND e."acked" = $2
  ORDER BY e."seq"
  LIMIT $3;

-- libs/database/src/sqlite/sqlite-terminal-queue.ts
UPDATE "terminal_events"
  SET "acked" = $1
  WHERE "event_id" IN ($2, …);

-- libs/database/src/sqlite/sqlite-terminal-queue.ts
UPDATE "terminal_events"
  SET "acked" = $1
  WHERE "seq" IN ($2, …);
