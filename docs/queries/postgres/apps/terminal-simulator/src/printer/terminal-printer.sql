-- Every statement that apps/terminal-simulator/src/printer/terminal-printer.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/printer/terminal-printer.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "TerminalPrintJobEntity"."seq" AS "TerminalPrintJobEntity_seq", "TerminalPrintJobEntity"."print_job_id" AS "TerminalPrintJobEntity_print_job_id", "TerminalPrintJobEntity"."serial_number" AS "TerminalPrintJobEntity_serial_number", "TerminalPrintJobEntity"."order" AS "TerminalPrintJobEntity_order", "TerminalPrintJobEntity"."status" AS "TerminalPrintJobEntity_status", "TerminalPrintJobEntity"."error_code" AS "TerminalPrintJobEntity_error_code", "TerminalPrintJobEntity"."error_message" AS "TerminalPrintJobEntity_error_message", "TerminalPrintJobEntity"."printed_text" AS "TerminalPrintJobEntity_printed_text", "TerminalPrintJobEntity"."version" AS "TerminalPrintJobEntity_version", "TerminalPrintJobEntity"."reported_version" AS "TerminalPrintJobEntity_reported_version", "TerminalPrintJobEntity"."updated_at" AS "TerminalPrintJobEntity_updated_at"
  FROM "terminal_print_jobs" "TerminalPrintJobEntity"
  WHERE (("TerminalPrintJobEntity"."serial_number" = $1) AND ("TerminalPrintJobEntity"."status" IN ($2, …)))
  ORDER BY "TerminalPrintJobEntity"."seq" ASC
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/terminal-printer.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "j"."seq" AS "j_seq", "j"."print_job_id" AS "j_print_job_id", "j"."serial_number" AS "j_serial_number", "j"."order" AS "j_order", "j"."status" AS "j_status", "j"."error_code" AS "j_error_code", "j"."error_message" AS "j_error_message", "j"."printed_text" AS "j_printed_text", "j"."version" AS "j_version", "j"."reported_version" AS "j_reported_version", "j"."updated_at" AS "j_updated_at"
  FROM "terminal_print_jobs" "j"
  WHERE "j"."serial_number" = $1 AND "j"."version" > "j"."reported_version"
  ORDER BY "j"."seq" ASC
  LIMIT <n>;
