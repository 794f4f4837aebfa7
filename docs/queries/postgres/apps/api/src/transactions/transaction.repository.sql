-- Every statement that apps/api/src/transactions/transaction.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/transactions/transaction.repository.ts
INSERT INTO "transactions" ("id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29)
  ON CONFLICT DO NOTHING;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope", "received_at"
  FROM "transaction_events"
  WHERE "event_id" = $1
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts
SELECT "event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope", "received_at"
  FROM "transaction_events"
  WHERE "transaction_id" IN ($1, …)
  ORDER BY "sequence" ASC;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = $1 AND "client_transaction_id" = $2
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = $1 AND "target_reference" = $2 AND "outcome" IS NULL
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = $1 AND "transaction_reference" = $2
  LIMIT <n>;

-- apps/api/src/transactions/transaction.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "client_transaction_id", "fingerprint", "operation_type", "mode", "form", "terminal_serial", "status", "amount", "tip", "metadata", "events_webhook_url", "transaction_reference", "target_reference", "acknowledgement", "outcome", "business_state", "business_amount", "business_tip", "refunded_total", "card_type", "approved_at_ms", "valid_from_ms", "created_at_ms", "event_count", "delivery_count", "created_at", "updated_at"
  FROM "transactions"
  WHERE "merchant_id" = $1 AND "transaction_reference" = $2
  LIMIT <n>
  FOR UPDATE;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "business_state" = $1, "refunded_total" = $2, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = $3;

-- apps/api/src/transactions/transaction.repository.ts
UPDATE "transactions"
  SET "business_state" = $1, "updated_at" = CURRENT_TIMESTAMP
  WHERE "id" = $2;

-- apps/api/src/transactions/transaction.repository.ts
WITH s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING 1), s1 AS (UPDATE "transactions" SET "outcome" = $8, "status" = $9, "event_count" = $10, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $11 RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING 1), s1 AS (UPDATE "transactions" SET "status" = $8, "event_count" = $9, "acknowledgement" = $10, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $11 RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "outcome" = $1, "status" = $2, "event_count" = $3, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $4 AND "event_count" = $5 AND "delivery_count" = $6 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($7 AS character varying), CAST($8 AS character varying), CAST($9 AS integer), CAST($10 AS character varying), CAST($11 AS character varying), CAST($12 AS character varying), CAST($13 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "status" = $1, "event_count" = $2, "acknowledgement" = $3, "outcome" = $4, "transaction_reference" = $5, "business_state" = $6, "business_amount" = $7, "card_type" = $8, "approved_at_ms" = $9, "valid_from_ms" = $10, "delivery_count" = $11, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $12 AND "event_count" = $13 AND "delivery_count" = $14 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($15 AS character varying), CAST($16 AS character varying), CAST($17 AS integer), CAST($18 AS character varying), CAST($19 AS character varying), CAST($20 AS character varying), CAST($21 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "status" = $1, "event_count" = $2, "acknowledgement" = $3, "outcome" = $4, "transaction_reference" = $5, "business_state" = $6, "business_amount" = $7, "card_type" = $8, "approved_at_ms" = $9, "valid_from_ms" = $10, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $11 AND "event_count" = $12 AND "delivery_count" = $13 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($14 AS character varying), CAST($15 AS character varying), CAST($16 AS integer), CAST($17 AS character varying), CAST($18 AS character varying), CAST($19 AS character varying), CAST($20 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "status" = $1, "event_count" = $2, "acknowledgement" = $3, "outcome" = $4, "transaction_reference" = $5, "delivery_count" = $6, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $7 AND "event_count" = $8 AND "delivery_count" = $9 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($10 AS character varying), CAST($11 AS character varying), CAST($12 AS integer), CAST($13 AS character varying), CAST($14 AS character varying), CAST($15 AS character varying), CAST($16 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "status" = $1, "event_count" = $2, "acknowledgement" = $3, "outcome" = $4, "transaction_reference" = $5, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $6 AND "event_count" = $7 AND "delivery_count" = $8 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($9 AS character varying), CAST($10 AS character varying), CAST($11 AS integer), CAST($12 AS character varying), CAST($13 AS character varying), CAST($14 AS character varying), CAST($15 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;

-- apps/api/src/transactions/transaction.repository.ts
WITH s1 AS (UPDATE "transactions" SET "status" = $1, "event_count" = $2, "acknowledgement" = $3, "outcome" = $4, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $5 AND "event_count" = $6 AND "delivery_count" = $7 RETURNING 1), s0 AS (INSERT INTO "transaction_events" ("event_id", "transaction_id", "sequence", "status", "previous_status", "occurred_at", "envelope") SELECT * FROM (VALUES (CAST($8 AS character varying), CAST($9 AS character varying), CAST($10 AS integer), CAST($11 AS character varying), CAST($12 AS character varying), CAST($13 AS character varying), CAST($14 AS text))) AS v WHERE EXISTS (SELECT 1 FROM s1) RETURNING 1) SELECT (SELECT count(*) FROM s0) AS n0, (SELECT count(*) FROM s1) AS n1;
