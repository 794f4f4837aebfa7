-- Every statement that apps/terminal-simulator/src/printer/print-store.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/printer/print-store.ts
INSERT INTO "terminal_print_jobs"("print_job_id", "serial_number", "order", "status", "error_code", "error_message", "printed_text", "version", "reported_version", "updated_at")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  RETURNING "seq", "version", "reported_version";

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "TerminalPrintJobEntity"."seq" AS "TerminalPrintJobEntity_seq", "TerminalPrintJobEntity"."print_job_id" AS "TerminalPrintJobEntity_print_job_id", "TerminalPrintJobEntity"."serial_number" AS "TerminalPrintJobEntity_serial_number", "TerminalPrintJobEntity"."order" AS "TerminalPrintJobEntity_order", "TerminalPrintJobEntity"."status" AS "TerminalPrintJobEntity_status", "TerminalPrintJobEntity"."error_code" AS "TerminalPrintJobEntity_error_code", "TerminalPrintJobEntity"."error_message" AS "TerminalPrintJobEntity_error_message", "TerminalPrintJobEntity"."printed_text" AS "TerminalPrintJobEntity_printed_text", "TerminalPrintJobEntity"."version" AS "TerminalPrintJobEntity_version", "TerminalPrintJobEntity"."reported_version" AS "TerminalPrintJobEntity_reported_version", "TerminalPrintJobEntity"."updated_at" AS "TerminalPrintJobEntity_updated_at"
  FROM "terminal_print_jobs" "TerminalPrintJobEntity"
  WHERE (("TerminalPrintJobEntity"."print_job_id" = $1))
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "TerminalPrintJobEntity"."seq" AS "TerminalPrintJobEntity_seq", "TerminalPrintJobEntity"."print_job_id" AS "TerminalPrintJobEntity_print_job_id", "TerminalPrintJobEntity"."serial_number" AS "TerminalPrintJobEntity_serial_number", "TerminalPrintJobEntity"."order" AS "TerminalPrintJobEntity_order", "TerminalPrintJobEntity"."status" AS "TerminalPrintJobEntity_status", "TerminalPrintJobEntity"."error_code" AS "TerminalPrintJobEntity_error_code", "TerminalPrintJobEntity"."error_message" AS "TerminalPrintJobEntity_error_message", "TerminalPrintJobEntity"."printed_text" AS "TerminalPrintJobEntity_printed_text", "TerminalPrintJobEntity"."version" AS "TerminalPrintJobEntity_version", "TerminalPrintJobEntity"."reported_version" AS "TerminalPrintJobEntity_reported_version", "TerminalPrintJobEntity"."updated_at" AS "TerminalPrintJobEntity_updated_at"
  FROM "terminal_print_jobs" "TerminalPrintJobEntity"
  WHERE (("TerminalPrintJobEntity"."seq" = $1))
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "TerminalPrintJobEntity"."seq" AS "TerminalPrintJobEntity_seq", "TerminalPrintJobEntity"."print_job_id" AS "TerminalPrintJobEntity_print_job_id", "TerminalPrintJobEntity"."serial_number" AS "TerminalPrintJobEntity_serial_number", "TerminalPrintJobEntity"."order" AS "TerminalPrintJobEntity_order", "TerminalPrintJobEntity"."status" AS "TerminalPrintJobEntity_status", "TerminalPrintJobEntity"."error_code" AS "TerminalPrintJobEntity_error_code", "TerminalPrintJobEntity"."error_message" AS "TerminalPrintJobEntity_error_message", "TerminalPrintJobEntity"."printed_text" AS "TerminalPrintJobEntity_printed_text", "TerminalPrintJobEntity"."version" AS "TerminalPrintJobEntity_version", "TerminalPrintJobEntity"."reported_version" AS "TerminalPrintJobEntity_reported_version", "TerminalPrintJobEntity"."updated_at" AS "TerminalPrintJobEntity_updated_at"
  FROM "terminal_print_jobs" "TerminalPrintJobEntity"
  WHERE (("TerminalPrintJobEntity"."serial_number" = $1) AND ("TerminalPrintJobEntity"."status" IN ($2, …)))
  ORDER BY "TerminalPrintJobEntity"."seq" ASC
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "j"."seq" AS "j_seq", "j"."print_job_id" AS "j_print_job_id", "j"."serial_number" AS "j_serial_number", "j"."order" AS "j_order", "j"."status" AS "j_status", "j"."error_code" AS "j_error_code", "j"."error_message" AS "j_error_message", "j"."printed_text" AS "j_printed_text", "j"."version" AS "j_version", "j"."reported_version" AS "j_reported_version", "j"."updated_at" AS "j_updated_at"
  FROM "terminal_print_jobs" "j"
  WHERE "j"."serial_number" = $1 AND "j"."version" > "j"."reported_version"
  ORDER BY "j"."seq" ASC
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/print-store.ts
UPDATE "terminal_print_jobs"
  SET "printed_text" = $1, "status" = $2, "updated_at" = $3, "version" = "version" + 1
  WHERE "seq" = $4;

-- apps/terminal-simulator/src/printer/print-store.ts
UPDATE "terminal_print_jobs"
  SET "reported_version" = $1
  WHERE "seq" = $2 AND "reported_version" < $3;

-- apps/terminal-simulator/src/printer/print-store.ts
UPDATE "terminal_print_jobs"
  SET "status" = $1, "updated_at" = $2, "version" = "version" + 1
  WHERE "seq" = $3;
