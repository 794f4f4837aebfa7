-- Every statement that apps/terminal-simulator/src/printer/print-store.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/printer/print-store.ts
INSERT INTO "terminal_print_jobs" ("print_job_id", "serial_number", "order", "status", "error_code", "error_message", "printed_text", "version", "reported_version", "updated_at")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "seq", "print_job_id", "serial_number", "order", "status", "error_code", "error_message", "printed_text", "version", "reported_version", "updated_at"
  FROM "terminal_print_jobs"
  WHERE "print_job_id" = ?
  LIMIT <n>;

-- apps/terminal-simulator/src/printer/print-store.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "seq", "print_job_id", "serial_number", "order", "status", "error_code", "error_message", "printed_text", "version", "reported_version", "updated_at"
  FROM "terminal_print_jobs"
  WHERE "seq" = ?
  LIMIT <n>;
