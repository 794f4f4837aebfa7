-- Every statement that libs/database/src/sqlite/sqlite-transaction-search.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-transaction-search.ts
SELECT t."id" AS "id", t."merchant_id" AS "merchant_id", t."client_transaction_id" AS "client_transaction_id", t."fingerprint" AS "fingerprint", t."operation_type" AS "operation_type", t."mode" AS "mode", t."form" AS "form", t."terminal_serial" AS "terminal_serial", t."status" AS "status", t."amount" AS "amount", t."tip" AS "tip", t."metadata" AS "metadata", t."events_webhook_url" AS "events_webhook_url", t."transaction_reference" AS "transaction_reference", t."target_reference" AS "target_reference", t."acknowledgement" AS "acknowledgement", t."outcome" AS "outcome", t."business_state" AS "business_state", t."business_amount" AS "business_amount", t."business_tip" AS "business_tip", t."refunded_total" AS "refunded_total", t."card_type" AS "card_type", t."approved_at_ms" AS "approved_at_ms", t."valid_from_ms" AS "valid_from_ms", t."created_at_ms" AS "created_at_ms", t."event_count" AS "event_count", t."delivery_count" AS "delivery_count", t."created_at" AS "created_at", t."updated_at" AS "updated_at"
  FROM "transactions" t
  WHERE t."merchant_id" = $1 AND t."status" IS NOT NULL AND t."client_transaction_id" = $2
  ORDER BY t."created_at_ms" DESC, t."id" DESC
  LIMIT $3;

-- libs/database/src/sqlite/sqlite-transaction-search.ts
SELECT t."id" AS "id", t."merchant_id" AS "merchant_id", t."client_transaction_id" AS "client_transaction_id", t."fingerprint" AS "fingerprint", t."operation_type" AS "operation_type", t."mode" AS "mode", t."form" AS "form", t."terminal_serial" AS "terminal_serial", t."status" AS "status", t."amount" AS "amount", t."tip" AS "tip", t."metadata" AS "metadata", t."events_webhook_url" AS "events_webhook_url", t."transaction_reference" AS "transaction_reference", t."target_reference" AS "target_reference", t."acknowledgement" AS "acknowledgement", t."outcome" AS "outcome", t."business_state" AS "business_state", t."business_amount" AS "business_amount", t."business_tip" AS "business_tip", t."refunded_total" AS "refunded_total", t."card_type" AS "card_type", t."approved_at_ms" AS "approved_at_ms", t."valid_from_ms" AS "valid_from_ms", t."created_at_ms" AS "created_at_ms", t."event_count" AS "event_count", t."delivery_count" AS "delivery_count", t."created_at" AS "created_at", t."updated_at" AS "updated_at"
  FROM "transactions" t
  WHERE t."merchant_id" = $1 AND t."status" IS NOT NULL
  ORDER BY t."created_at_ms" DESC, t."id" DESC
  LIMIT $2;
