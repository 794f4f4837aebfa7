-- Every statement that apps/api/src/secrets/unknown-secret-keys.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/secrets/unknown-secret-keys.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT previous_webhook_secret AS sealed
  FROM merchants
  WHERE previous_webhook_secret LIKE 'v1:%' AND substr(previous_webhook_secret, <n>, $1) <> $2
  LIMIT <n>;

-- apps/api/src/secrets/unknown-secret-keys.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT secret_key AS sealed
  FROM merchants
  WHERE secret_key LIKE 'v1:%' AND substr(secret_key, <n>, $1) <> $2
  LIMIT <n>;

-- apps/api/src/secrets/unknown-secret-keys.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT webhook_secret AS sealed
  FROM merchants
  WHERE webhook_secret LIKE 'v1:%' AND substr(webhook_secret, <n>, $1) <> $2
  LIMIT <n>;
