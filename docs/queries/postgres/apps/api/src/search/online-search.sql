-- Every statement that apps/api/src/search/online-search.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/search/online-search.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "t"."id" AS "t_id", "t"."merchant_id" AS "t_merchant_id", "t"."client_transaction_id" AS "t_client_transaction_id", "t"."fingerprint" AS "t_fingerprint", "t"."operation_type" AS "t_operation_type", "t"."mode" AS "t_mode", "t"."form" AS "t_form", "t"."terminal_serial" AS "t_terminal_serial", "t"."status" AS "t_status", "t"."amount" AS "t_amount", "t"."tip" AS "t_tip", "t"."metadata" AS "t_metadata", "t"."events_webhook_url" AS "t_events_webhook_url", "t"."transaction_reference" AS "t_transaction_reference", "t"."target_reference" AS "t_target_reference", "t"."acknowledgement" AS "t_acknowledgement", "t"."outcome" AS "t_outcome", "t"."business_state" AS "t_business_state", "t"."business_amount" AS "t_business_amount", "t"."business_tip" AS "t_business_tip", "t"."refunded_total" AS "t_refunded_total", "t"."card_type" AS "t_card_type", "t"."approved_at_ms" AS "t_approved_at_ms", "t"."valid_from_ms" AS "t_valid_from_ms", "t"."created_at_ms" AS "t_created_at_ms", "t"."event_count" AS "t_event_count", "t"."delivery_count" AS "t_delivery_count", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at"
  FROM "transactions" "t"
  WHERE "t"."merchant_id" = $1 AND "t"."status" IS NOT NULL AND "t"."client_transaction_id" = $2
  ORDER BY "t"."created_at_ms" DESC, "t"."id" DESC
  LIMIT <n>;

-- apps/api/src/search/online-search.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "t"."id" AS "t_id", "t"."merchant_id" AS "t_merchant_id", "t"."client_transaction_id" AS "t_client_transaction_id", "t"."fingerprint" AS "t_fingerprint", "t"."operation_type" AS "t_operation_type", "t"."mode" AS "t_mode", "t"."form" AS "t_form", "t"."terminal_serial" AS "t_terminal_serial", "t"."status" AS "t_status", "t"."amount" AS "t_amount", "t"."tip" AS "t_tip", "t"."metadata" AS "t_metadata", "t"."events_webhook_url" AS "t_events_webhook_url", "t"."transaction_reference" AS "t_transaction_reference", "t"."target_reference" AS "t_target_reference", "t"."acknowledgement" AS "t_acknowledgement", "t"."outcome" AS "t_outcome", "t"."business_state" AS "t_business_state", "t"."business_amount" AS "t_business_amount", "t"."business_tip" AS "t_business_tip", "t"."refunded_total" AS "t_refunded_total", "t"."card_type" AS "t_card_type", "t"."approved_at_ms" AS "t_approved_at_ms", "t"."valid_from_ms" AS "t_valid_from_ms", "t"."created_at_ms" AS "t_created_at_ms", "t"."event_count" AS "t_event_count", "t"."delivery_count" AS "t_delivery_count", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at"
  FROM "transactions" "t"
  WHERE "t"."merchant_id" = $1 AND "t"."status" IS NOT NULL
  ORDER BY "t"."created_at_ms" DESC, "t"."id" DESC
  LIMIT <n>;
