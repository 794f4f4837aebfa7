-- Every statement that apps/api/src/print-jobs/print-job.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/print-jobs/print-job.repository.ts
INSERT INTO "print_jobs" ("print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17);

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch"
  FROM "print_jobs"
  WHERE "merchant_id" = $1 AND "terminal_serial" = $2 AND "print_job_id" = $3
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch"
  FROM "print_jobs"
  WHERE "print_job_id" = $1 AND "terminal_serial" = $2
  LIMIT <n>
  FOR UPDATE;

-- apps/api/src/print-jobs/print-job.repository.ts
SELECT "webhook_secret", "previous_webhook_secret", "previous_webhook_secret_until"
  FROM "merchants"
  WHERE "merchant_id" = $1;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "callback" = $1
  WHERE "print_job_id" = $2 AND "callback_owner" = $3 AND "callback_lease_epoch" = $4;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = $1, "updated_at" = $2, "error_code" = $3, "error_message" = $4, "printed_text" = $5
  WHERE "print_job_id" = $6;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = $1, "updated_at" = $2, "error_code" = $3, "error_message" = $4, "printed_text" = $5, "callback_owner" = $6, "callback_lease_until" = $7
  WHERE "print_job_id" = $8;
