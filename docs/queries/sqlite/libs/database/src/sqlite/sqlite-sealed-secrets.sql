-- Every statement that libs/database/src/sqlite/sqlite-sealed-secrets.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT merchant_id, secret_key, webhook_secret, previous_webhook_secret
  FROM merchants
  WHERE merchant_id > ? AND (substr(secret_key, <n>, ?) <> ? OR substr(webhook_secret, <n>, ?) <> ? OR substr(previous_webhook_secret, <n>, ?) <> ?)
  ORDER BY merchant_id
  LIMIT ?;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT previous_webhook_secret AS sealed
  FROM merchants
  WHERE substr(previous_webhook_secret, <n>, ?) = ? AND substr(previous_webhook_secret, <n>, ?) <> ?
  LIMIT <n>;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT secret_key AS sealed
  FROM merchants
  WHERE substr(secret_key, <n>, ?) = ? AND substr(secret_key, <n>, ?) <> ?
  LIMIT <n>;

-- libs/database/src/sqlite/sqlite-sealed-secrets.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT webhook_secret AS sealed
  FROM merchants
  WHERE substr(webhook_secret, <n>, ?) = ? AND substr(webhook_secret, <n>, ?) <> ?
  LIMIT <n>;
