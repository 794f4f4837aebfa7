-- Every statement that apps/api/src/secrets/secret-resealer.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/secrets/secret-resealer.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT merchant_id, secret_key, webhook_secret, previous_webhook_secret
  FROM merchants
  WHERE merchant_id > $1 AND (substr(secret_key, <n>, $2) <> $3 OR substr(webhook_secret, <n>, $4) <> $5 OR substr(previous_webhook_secret, <n>, $6) <> $7)
  ORDER BY merchant_id
  LIMIT $8;
