-- Every statement that apps/api/src/print/print-service.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/print/print-service.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "PrintJobEntity"."print_job_id" AS "PrintJobEntity_print_job_id", "PrintJobEntity"."merchant_id" AS "PrintJobEntity_merchant_id", "PrintJobEntity"."terminal_serial" AS "PrintJobEntity_terminal_serial", "PrintJobEntity"."status" AS "PrintJobEntity_status", "PrintJobEntity"."external_reference" AS "PrintJobEntity_external_reference", "PrintJobEntity"."webhook_url" AS "PrintJobEntity_webhook_url", "PrintJobEntity"."transaction_reference" AS "PrintJobEntity_transaction_reference", "PrintJobEntity"."commands" AS "PrintJobEntity_commands", "PrintJobEntity"."error_code" AS "PrintJobEntity_error_code", "PrintJobEntity"."error_message" AS "PrintJobEntity_error_message", "PrintJobEntity"."printed_text" AS "PrintJobEntity_printed_text", "PrintJobEntity"."callback" AS "PrintJobEntity_callback", "PrintJobEntity"."created_at" AS "PrintJobEntity_created_at", "PrintJobEntity"."updated_at" AS "PrintJobEntity_updated_at", "PrintJobEntity"."callback_owner" AS "PrintJobEntity_callback_owner", "PrintJobEntity"."callback_lease_until" AS "PrintJobEntity_callback_lease_until", "PrintJobEntity"."callback_lease_epoch" AS "PrintJobEntity_callback_lease_epoch"
  FROM "print_jobs" "PrintJobEntity"
  WHERE (("PrintJobEntity"."merchant_id" = ?) AND ("PrintJobEntity"."terminal_serial" = ?) AND ("PrintJobEntity"."print_job_id" = ?))
  LIMIT <n>;
