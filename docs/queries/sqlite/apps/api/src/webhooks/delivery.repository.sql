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
SELECT "DeliveryAttemptEntity"."delivery_id" AS "DeliveryAttemptEntity_delivery_id", "DeliveryAttemptEntity"."n" AS "DeliveryAttemptEntity_n", "DeliveryAttemptEntity"."at" AS "DeliveryAttemptEntity_at", "DeliveryAttemptEntity"."status_code" AS "DeliveryAttemptEntity_status_code", "DeliveryAttemptEntity"."error" AS "DeliveryAttemptEntity_error", "DeliveryAttemptEntity"."latency_ms" AS "DeliveryAttemptEntity_latency_ms", "DeliveryAttemptEntity"."answer_excerpt" AS "DeliveryAttemptEntity_answer_excerpt", "DeliveryAttemptEntity"."listener_answers" AS "DeliveryAttemptEntity_listener_answers", "DeliveryAttemptEntity"."next_attempt_at" AS "DeliveryAttemptEntity_next_attempt_at"
  FROM "webhook_delivery_attempts" "DeliveryAttemptEntity"
  WHERE (("DeliveryAttemptEntity"."delivery_id" IN (?, …)))
  ORDER BY "DeliveryAttemptEntity"."n" ASC;

-- apps/api/src/webhooks/delivery.repository.ts
SELECT "DeliveryEntity"."id" AS "DeliveryEntity_id", "DeliveryEntity"."merchant_id" AS "DeliveryEntity_merchant_id", "DeliveryEntity"."transaction_id" AS "DeliveryEntity_transaction_id", "DeliveryEntity"."position" AS "DeliveryEntity_position", "DeliveryEntity"."client_transaction_id" AS "DeliveryEntity_client_transaction_id", "DeliveryEntity"."event_id" AS "DeliveryEntity_event_id", "DeliveryEntity"."event_status" AS "DeliveryEntity_event_status", "DeliveryEntity"."url" AS "DeliveryEntity_url", "DeliveryEntity"."payload" AS "DeliveryEntity_payload", "DeliveryEntity"."state" AS "DeliveryEntity_state", "DeliveryEntity"."failure" AS "DeliveryEntity_failure", "DeliveryEntity"."attempt_count" AS "DeliveryEntity_attempt_count", "DeliveryEntity"."first_attempt_at" AS "DeliveryEntity_first_attempt_at", "DeliveryEntity"."next_attempt_at" AS "DeliveryEntity_next_attempt_at", "DeliveryEntity"."redelivery_of" AS "DeliveryEntity_redelivery_of", "DeliveryEntity"."created_at" AS "DeliveryEntity_created_at", "DeliveryEntity"."lease_owner" AS "DeliveryEntity_lease_owner", "DeliveryEntity"."lease_until" AS "DeliveryEntity_lease_until", "DeliveryEntity"."lease_epoch" AS "DeliveryEntity_lease_epoch"
  FROM "webhook_deliveries" "DeliveryEntity"
  WHERE (("DeliveryEntity"."merchant_id" = ?) AND ("DeliveryEntity"."client_transaction_id" = ?))
  ORDER BY "DeliveryEntity"."position" ASC;

-- apps/api/src/webhooks/delivery.repository.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT "id", "merchant_id", "transaction_id", "position", "client_transaction_id", "event_id", "event_status", "url", "payload", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at", "redelivery_of", "created_at", "lease_owner", "lease_until", "lease_epoch"
  FROM "webhook_deliveries"
  WHERE "id" = ? AND "merchant_id" = ?
  LIMIT <n>;

-- apps/api/src/webhooks/delivery.repository.ts
WITH v ("id", "lease_epoch", "state", "failure", "attempt_count", "first_attempt_at", "next_attempt_at") AS (VALUES (?, ?, ?, ?, ?, ?, ?)) UPDATE "webhook_deliveries"
  SET "state" = v."state", "failure" = v."failure", "attempt_count" = v."attempt_count", "first_attempt_at" = v."first_attempt_at", "next_attempt_at" = v."next_attempt_at"
  FROM v
  WHERE "webhook_deliveries"."id" = v."id" AND "webhook_deliveries"."lease_epoch" = v."lease_epoch" AND "webhook_deliveries"."lease_owner" = ?
  RETURNING "webhook_deliveries"."id" AS changed;
