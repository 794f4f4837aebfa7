-- Every statement that apps/api/src/print-jobs/print-job.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/print-jobs/print-job.repository.ts
INSERT INTO "print_jobs"("print_job_id", "merchant_id", "terminal_serial", "status", "external_reference", "webhook_url", "transaction_reference", "commands", "error_code", "error_message", "printed_text", "callback", "created_at", "updated_at", "callback_owner", "callback_lease_until", "callback_lease_epoch")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
  RETURNING "external_reference", "webhook_url", "callback_lease_epoch";

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "MerchantEntity"."merchant_id" AS "MerchantEntity_merchant_id", "MerchantEntity"."webhook_secret" AS "MerchantEntity_webhook_secret", "MerchantEntity"."previous_webhook_secret" AS "MerchantEntity_previous_webhook_secret", "MerchantEntity"."previous_webhook_secret_until" AS "MerchantEntity_previous_webhook_secret_until"
  FROM "merchants" "MerchantEntity"
  WHERE (("MerchantEntity"."merchant_id" = $1))
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "PrintJobEntity"."print_job_id" AS "PrintJobEntity_print_job_id", "PrintJobEntity"."merchant_id" AS "PrintJobEntity_merchant_id", "PrintJobEntity"."terminal_serial" AS "PrintJobEntity_terminal_serial", "PrintJobEntity"."status" AS "PrintJobEntity_status", "PrintJobEntity"."external_reference" AS "PrintJobEntity_external_reference", "PrintJobEntity"."webhook_url" AS "PrintJobEntity_webhook_url", "PrintJobEntity"."transaction_reference" AS "PrintJobEntity_transaction_reference", "PrintJobEntity"."commands" AS "PrintJobEntity_commands", "PrintJobEntity"."error_code" AS "PrintJobEntity_error_code", "PrintJobEntity"."error_message" AS "PrintJobEntity_error_message", "PrintJobEntity"."printed_text" AS "PrintJobEntity_printed_text", "PrintJobEntity"."callback" AS "PrintJobEntity_callback", "PrintJobEntity"."created_at" AS "PrintJobEntity_created_at", "PrintJobEntity"."updated_at" AS "PrintJobEntity_updated_at", "PrintJobEntity"."callback_owner" AS "PrintJobEntity_callback_owner", "PrintJobEntity"."callback_lease_until" AS "PrintJobEntity_callback_lease_until", "PrintJobEntity"."callback_lease_epoch" AS "PrintJobEntity_callback_lease_epoch"
  FROM "print_jobs" "PrintJobEntity"
  WHERE (("PrintJobEntity"."merchant_id" = $1) AND ("PrintJobEntity"."terminal_serial" = $2) AND ("PrintJobEntity"."print_job_id" = $3))
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "PrintJobEntity"."print_job_id" AS "PrintJobEntity_print_job_id", "PrintJobEntity"."merchant_id" AS "PrintJobEntity_merchant_id", "PrintJobEntity"."terminal_serial" AS "PrintJobEntity_terminal_serial", "PrintJobEntity"."status" AS "PrintJobEntity_status", "PrintJobEntity"."external_reference" AS "PrintJobEntity_external_reference", "PrintJobEntity"."webhook_url" AS "PrintJobEntity_webhook_url", "PrintJobEntity"."transaction_reference" AS "PrintJobEntity_transaction_reference", "PrintJobEntity"."commands" AS "PrintJobEntity_commands", "PrintJobEntity"."error_code" AS "PrintJobEntity_error_code", "PrintJobEntity"."error_message" AS "PrintJobEntity_error_message", "PrintJobEntity"."printed_text" AS "PrintJobEntity_printed_text", "PrintJobEntity"."callback" AS "PrintJobEntity_callback", "PrintJobEntity"."created_at" AS "PrintJobEntity_created_at", "PrintJobEntity"."updated_at" AS "PrintJobEntity_updated_at", "PrintJobEntity"."callback_owner" AS "PrintJobEntity_callback_owner", "PrintJobEntity"."callback_lease_until" AS "PrintJobEntity_callback_lease_until", "PrintJobEntity"."callback_lease_epoch" AS "PrintJobEntity_callback_lease_epoch"
  FROM "print_jobs" "PrintJobEntity"
  WHERE (("PrintJobEntity"."print_job_id" = $1) AND ("PrintJobEntity"."terminal_serial" = $2))
  LIMIT <n>;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "callback" = $1
  WHERE ("print_job_id" = $2 AND "callback_owner" = $3 AND "callback_lease_epoch" = $4);

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = $1, "updated_at" = $2, "error_code" = $3, "error_message" = $4, "printed_text" = $5
  WHERE "print_job_id" = $6;

-- apps/api/src/print-jobs/print-job.repository.ts
UPDATE "print_jobs"
  SET "status" = $1, "updated_at" = $2, "error_code" = $3, "error_message" = $4, "printed_text" = $5, "callback_owner" = $6, "callback_lease_until" = $7
  WHERE "print_job_id" = $8;
