-- Every statement that apps/api/src/webhooks/delivery.repository.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/webhooks/delivery.repository.ts
INSERT INTO "webhook_deliveries" ("id", "merchant_id", "transaction_id", "position", "client_transaction_id", "event_id", "event_status", "url", "payload", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at", "redelivery_of", "created_at", "lease_owner", "lease_until", "lease_epoch")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- apps/api/src/webhooks/delivery.repository.ts
INSERT INTO "webhook_delivery_attempts" ("delivery_id", "n", "at", "status_code", "error", "latency_ms", "answer_excerpt", "listener_answers", "next_attempt_at")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- apps/api/src/webhooks/delivery.repository.ts
SELECT "delivery_id", "n", "at", "status_code", "error", "latency_ms", "answer_excerpt", "listener_answers", "next_attempt_at"
  FROM "webhook_delivery_attempts"
  WHERE "delivery_id" IN (?, …)
  ORDER BY "n" ASC;

-- apps/api/src/webhooks/delivery.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "transaction_id", "position", "client_transaction_id", "event_id", "event_status", "url", "payload", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at", "redelivery_of", "created_at", "lease_owner", "lease_until", "lease_epoch"
  FROM "webhook_deliveries"
  WHERE "id" = ? AND "merchant_id" = ?
  LIMIT <n>;

-- apps/api/src/webhooks/delivery.repository.ts
SELECT "id", "merchant_id", "transaction_id", "position", "client_transaction_id", "event_id", "event_status", "url", "payload", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at", "redelivery_of", "created_at", "lease_owner", "lease_until", "lease_epoch"
  FROM "webhook_deliveries"
  WHERE "merchant_id" = ? AND "client_transaction_id" = ?
  ORDER BY "position" ASC;

-- apps/api/src/webhooks/delivery.repository.ts
WITH v ("id", "lease_epoch", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at") AS (VALUES (?, ?, ?, ?, ?, ?, ?)) UPDATE "webhook_deliveries"
  SET "state" = v."state", "failure" = v."failure", "attempt_count" = v."attempt_count", "first_attempt_at" = v."first_attempt_at", "next_attempt_at" = v."next_attempt_at"
  FROM v
  WHERE "webhook_deliveries"."id" = v."id" AND "webhook_deliveries"."lease_epoch" = v."lease_epoch" AND "webhook_deliveries"."lease_owner" = ?
  RETURNING "webhook_deliveries"."id" AS changed;
