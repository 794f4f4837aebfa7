-- Every statement that libs/database/src/sqlite/sqlite-sealed-secrets.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT merchant_id, secret_key, webhook_secret, previous_webhook_secret
  FROM merchants
  WHERE merchant_id > $1 AND (substr(secret_key, <n>, $2) <> $3 OR substr(webhook_secret, <n>, $4) <> $5 OR substr(previous_webhook_secret, <n>, $6) <> $7)
  ORDER BY merchant_id
  LIMIT $8;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT previous_webhook_secret AS sealed
  FROM merchants
  WHERE substr(previous_webhook_secret, <n>, $1) = $2 AND substr(previous_webhook_secret, <n>, $3) <> $4
  LIMIT <n>;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT secret_key AS sealed
  FROM merchants
  WHERE substr(secret_key, <n>, $1) = $2 AND substr(secret_key, <n>, $3) <> $4
  LIMIT <n>;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT webhook_secret AS sealed
  FROM merchants
  WHERE substr(webhook_secret, <n>, $1) = $2 AND substr(webhook_secret, <n>, $3) <> $4
  LIMIT <n>;
