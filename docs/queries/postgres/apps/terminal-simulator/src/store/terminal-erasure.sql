-- Every statement that apps/terminal-simulator/src/store/terminal-erasure.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/terminal-simulator/src/store/terminal-erasure.ts
DELETE
  FROM "terminal_events"
  WHERE "serial_number" = $1;

-- apps/terminal-simulator/src/store/terminal-erasure.ts
DELETE
  FROM "terminal_print_jobs"
  WHERE "serial_number" = $1;

-- apps/terminal-simulator/src/store/terminal-erasure.ts
DELETE
  FROM "terminal_transactions"
  WHERE "serial_number" = $1;
