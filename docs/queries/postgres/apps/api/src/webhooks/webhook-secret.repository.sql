-- Every statement that apps/api/src/webhooks/webhook-secret.repository.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/webhooks/webhook-secret.repository.ts
UPDATE "merchants"
  SET "webhook_secret" = $1, "previous_webhook_secret" = $2, "previous_webhook_secret_until" = $3
  WHERE "merchant_id" = $4;
