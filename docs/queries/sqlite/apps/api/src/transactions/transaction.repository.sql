-- Every statement that apps/api/src/transactions/transaction.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/transactions/transaction.repository.ts
INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT *
  FROM (VALUES (?, ?, ?, ?, ?, ?, ?)) AS v;

-- apps/api/src/transactions/transaction.repository.ts
INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope")
  VALUES (?, ?, ?, ?, ?, ?, ?);

-- apps/api/src/transactions/transaction.repository.ts
INSERT INTO "transactions" ("id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT DO NOTHING;

-- apps/api/src/transactions/transaction.repository.ts
SELECT "TransactionEventEntity"."event_id" AS "TransactionEventEntity_event_id", "TransactionEventEntity"."transaction_id" AS "TransactionEventEntity_transaction_id", "TransactionEventEntity"."sequence" AS "TransactionEventEntity_sequence", "TransactionEventEntity"."status" AS "TransactionEventEntity_status", "TransactionEventEntity"."previous_status" AS "TransactionEventEntity_previous_status", "TransactionEventEntity"."occurred_at" AS "TransactionEventEntity_occurred_at", "TransactionEventEntity"."envelope" AS "TransactionEventEntity_envelope", "TransactionEventEntity"."received_at" AS "TransactionEventEntity_received_at"
  FROM "transaction_events" "TransactionEventEntity"
  WHERE (("TransactionEventEntity"."transaction_id" IN (?, …)))
  ORDER BY "TransactionEventEntity"."sequence" ASC;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope", "received_at"
  FROM "transaction_events"
  WHERE "event_id" = ?
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = ? AND "client_transaction_id" = ?
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = ? AND "target_reference" = ? AND "outcome" IS NULL
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = ? AND "transaction_reference" = ?
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "t"."id" AS "t_id", "t"."merchant_id" AS "t_merchant_id", "t"."client_transaction_id" AS "t_client_transaction_id", "t"."fingerprint" AS "t_fingerprint", "t"."operation_type" AS "t_operation_type", "t"."mode" AS "t_mode", "t"."form" AS "t_form", "t"."terminal_serial" AS "t_terminal_serial", "t"."status" AS "t_status", "t"."amount" AS "t_amount", "t"."tip" AS "t_tip", "t"."metadata" AS "t_metadata", "t"."events_webhook_url" AS "t_events_webhook_url", "t"."transaction_reference" AS "t_transaction_reference", "t"."target_reference" AS "t_target_reference", "t"."acknowledgement" AS "t_acknowledgement", "t"."outcome" AS "t_outcome", "t"."business_state" AS "t_business_state", "t"."business_amount" AS "t_business_amount", "t"."business_tip" AS "t_business_tip", "t"."refunded_total" AS "t_refunded_total", "t"."card_type" AS "t_card_type", "t"."approved_at_ms" AS "t_approved_at_ms", "t"."valid_from_ms" AS "t_valid_from_ms", "t"."created_at_ms" AS "t_created_at_ms", "t"."event_count" AS "t_event_count", "t"."delivery_count" AS "t_delivery_count", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at"
  FROM "transactions" "t"
  WHERE "t"."merchant_id" = ? AND "t"."status" IS NOT NULL AND "t"."client_transaction_id" = ?
  ORDER BY "t"."created_at_ms" DESC, "t"."id" DESC
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "t"."id" AS "t_id", "t"."merchant_id" AS "t_merchant_id", "t"."client_transaction_id" AS "t_client_transaction_id", "t"."fingerprint" AS "t_fingerprint", "t"."operation_type" AS "t_operation_type", "t"."mode" AS "t_mode", "t"."form" AS "t_form", "t"."terminal_serial" AS "t_terminal_serial", "t"."status" AS "t_status", "t"."amount" AS "t_amount", "t"."tip" AS "t_tip", "t"."metadata" AS "t_metadata", "t"."events_webhook_url" AS "t_events_webhook_url", "t"."transaction_reference" AS "t_transaction_reference", "t"."target_reference" AS "t_target_reference", "t"."acknowledgement" AS "t_acknowledgement", "t"."outcome" AS "t_outcome", "t"."business_state" AS "t_business_state", "t"."business_amount" AS "t_business_amount", "t"."business_tip" AS "t_business_tip", "t"."refunded_total" AS "t_refunded_total", "t"."card_type" AS "t_card_type", "t"."approved_at_ms" AS "t_approved_at_ms", "t"."valid_from_ms" AS "t_valid_from_ms", "t"."created_at_ms" AS "t_created_at_ms", "t"."event_count" AS "t_event_count", "t"."delivery_count" AS "t_delivery_count", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at"
  FROM "transactions" "t"
  WHERE "t"."merchant_id" = ? AND "t"."status" IS NOT NULL
  ORDER BY "t"."created_at_ms" DESC, "t"."id" DESC
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "business_state" = ?, "refunded_total" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "business_state" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "outcome" = ?, "status" = ?, "event_count" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "outcome" = ?, "transaction_reference" = ?, "business_state" = ?, "business_amount" = ?, "card_type" = ?, "approved_at_ms" = ?, "valid_from_ms" = ?, "delivery_count" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "outcome" = ?, "transaction_reference" = ?, "business_state" = ?, "business_amount" = ?, "card_type" = ?, "approved_at_ms" = ?, "valid_from_ms" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "outcome" = ?, "transaction_reference" = ?, "delivery_count" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "outcome" = ?, "transaction_reference" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "outcome" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ? AND "event_count" = ? AND "delivery_count" = ?;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "status" = ?, "event_count" = ?, "acknowledgement" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = ?;
