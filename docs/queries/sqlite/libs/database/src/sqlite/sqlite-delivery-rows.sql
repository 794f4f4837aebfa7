-- Every statement that libs/database/src/sqlite/sqlite-delivery-rows.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-delivery-rows.ts
INSERT INTO "webhook_deliveries" ("id", "merchant_id", "transaction_id", "position", "client_transaction_id", "event_id", "event_status", "url", "payload", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at", "redelivery_of", "created_at", "lease_owner", "lease_until", "lease_epoch")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING "id" AS id, (SELECT webhook_secret FROM merchants WHERE merchants.merchant_id = "webhook_deliveries"."merchant_id") AS webhook_secret, (SELECT previous_webhook_secret FROM merchants WHERE merchants.merchant_id = "webhook_deliveries"."merchant_id") AS previous_webhook_secret, (SELECT previous_webhook_secret_until FROM merchants WHERE merchants.merchant_id = "webhook_deliveries"."merchant_id") AS previous_webhook_secret_until;

-- libs/database/src/sqlite/sqlite-delivery-rows.ts
SELECT d.url AS url, COALESCE(NULLIF(d.payload, ''), (SELECT e.envelope FROM transaction_events e WHERE e.event_id = d.event_id)) AS body, d.event_id AS event_id, d.merchant_id AS merchant_id, m.webhook_secret AS webhook_secret, m.previous_webhook_secret AS previous_webhook_secret, m.previous_webhook_secret_until AS previous_webhook_secret_until
  FROM webhook_deliveries d
  LEFT
  JOIN merchants m ON m.merchant_id = d.merchant_id
  WHERE d.id = ?;

-- libs/database/src/sqlite/sqlite-delivery-rows.ts
SELECT delivery_count
  FROM transactions
  WHERE id = ?;

-- libs/database/src/sqlite/sqlite-delivery-rows.ts
UPDATE transactions
  SET delivery_count = delivery_count + 1
  WHERE id = ?;
