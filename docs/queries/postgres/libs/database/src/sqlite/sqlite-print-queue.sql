-- Every statement that libs/database/src/sqlite/sqlite-print-queue.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-print-queue.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT j."seq" AS "seq", j."print_job_id" AS "print_job_id", j."serial_number" AS "serial_number", j."order" AS "order", j."status" AS "status", j."error_code" AS "error_code", j."error_message" AS "error_message", j."printed_text" AS "printed_text", j."version" AS "version", j."reported_version" AS "reported_version", j."updated_at" AS "updated_at"
  FROM "terminal_print_jobs" j
  WHERE j."serial_number" = $1 AND j."status" IN ($2, …)
  ORDER BY j."seq"
  LIMIT <n>;

-- libs/database/src/sqlite/sqlite-print-queue.ts
SELECT j."seq" AS "seq", j."print_job_id" AS "print_job_id", j."serial_number" AS "serial_number", j."order" AS "order", j."status" AS "status", j."error_code" AS "error_code", j."error_message" AS "error_message", j."printed_text" AS "printed_text", j."version" AS "version", j."reported_version" AS "reported_version", j."updated_at" AS "updated_at"
  FROM "terminal_print_jobs" j
  WHERE j."serial_number" = $1 AND j."version" > j."reported_version"
  ORDER BY j."seq"
  LIMIT $2;

-- libs/database/src/sqlite/sqlite-print-queue.ts
UPDATE "terminal_print_jobs"
  SET "printed_text" = $1, "status" = $2, "updated_at" = $3, "version" = "version" + 1
  WHERE "seq" = $4;

-- libs/database/src/sqlite/sqlite-print-queue.ts
UPDATE "terminal_print_jobs"
  SET "reported_version" = $1
  WHERE "seq" = $2 AND "reported_version" < $3;

-- libs/database/src/sqlite/sqlite-print-queue.ts
UPDATE "terminal_print_jobs"
  SET "status" = $1, "updated_at" = $2, "version" = "version" + 1
  WHERE "seq" = $3;
