-- Every statement that apps/api/src/print-jobs/print-job.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/print-jobs/print-job.repository.ts
INSERT INTO "print_jobs" ("print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch"
  FROM "print_jobs"
  WHERE "merchant_id" = ? AND "terminal_serial" = ? AND "print_job_id" = ?
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch"
  FROM "print_jobs"
  WHERE "print_job_id" = ? AND "terminal_serial" = ?
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts
SELECT "webhook_secret", "previous_webhook_secret", "previous_webhook_secret_until"
  FROM "merchants"
  WHERE "merchant_id" = ?;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "callback" = ?
  WHERE "print_job_id" = ? AND "callback_owner" = ? AND "callback_lease_epoch" = ?;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = ?, "updated_at" = ?, "error_code" = ?, "error_message" = ?, "printed_text" = ?
  WHERE "print_job_id" = ?;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = ?, "updated_at" = ?, "error_code" = ?, "error_message" = ?, "printed_text" = ?, "callback_owner" = ?, "callback_lease_until" = ?
  WHERE "print_job_id" = ?;
