-- Every statement that apps/terminal-simulator/src/store/terminal-history.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/store/terminal-history.ts
SELECT "TerminalEventEntity"."seq" AS "TerminalEventEntity_seq", "TerminalEventEntity"."serial_number" AS "TerminalEventEntity_serial_number", "TerminalEventEntity"."transaction_key" AS "TerminalEventEntity_transaction_key", "TerminalEventEntity"."event_id" AS "TerminalEventEntity_event_id", "TerminalEventEntity"."envelope" AS "TerminalEventEntity_envelope", "TerminalEventEntity"."outcome" AS "TerminalEventEntity_outcome", "TerminalEventEntity"."acked" AS "TerminalEventEntity_acked"
  FROM "terminal_events" "TerminalEventEntity"
  WHERE (("TerminalEventEntity"."transaction_key" IN ($1, …)))
  ORDER BY "TerminalEventEntity"."seq" ASC;

-- apps/terminal-simulator/src/store/terminal-history.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "t"."key" AS "t_key", "t"."serial_number" AS "t_serial_number", "t"."order" AS "t_order", "t"."status" AS "t_status", "t"."outcome" AS "t_outcome", "t"."created_at" AS "t_created_at"
  FROM "terminal_transactions" "t"
  WHERE "t"."serial_number" = $1 AND substr("t"."key", <n>, $2) = $3
  ORDER BY "t"."created_at" DESC, "t"."key" DESC
  LIMIT <n>;
