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

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope", "received_at"
  FROM "transaction_events"
  WHERE "event_id" = ?
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts
SELECT "event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope", "received_at"
  FROM "transaction_events"
  WHERE "transaction_id" IN (?, …)
  ORDER BY "sequence" ASC;

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
