-- Every statement that libs/database/src/postgres/postgres-sealed-secrets.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/postgres/postgres-sealed-secrets.ts
SELECT merchant_id, secret_key, webhook_secret, previous_webhook_secret
  FROM merchants
  WHERE merchant_id > $1 AND (NOT starts_with(secret_key, $2) OR NOT starts_with(webhook_secret, $3) OR NOT starts_with(previous_webhook_secret, $4))
  ORDER BY merchant_id
  LIMIT $5;

-- libs/database/src/postgres/postgres-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT previous_webhook_secret AS sealed
  FROM merchants
  WHERE starts_with(previous_webhook_secret, $1) AND NOT starts_with(previous_webhook_secret, $2)
  LIMIT <n>;

-- libs/database/src/postgres/postgres-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT secret_key AS sealed
  FROM merchants
  WHERE starts_with(secret_key, $1) AND NOT starts_with(secret_key, $2)
  LIMIT <n>;

-- libs/database/src/postgres/postgres-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT webhook_secret AS sealed
  FROM merchants
  WHERE starts_with(webhook_secret, $1) AND NOT starts_with(webhook_secret, $2)
  LIMIT <n>;
