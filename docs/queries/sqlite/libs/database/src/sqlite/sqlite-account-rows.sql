-- Every statement that libs/database/src/sqlite/sqlite-account-rows.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-account-rows.ts
DELETE
  FROM print_jobs
  WHERE merchant_id = ?;

-- libs/database/src/sqlite/sqlite-account-rows.ts
DELETE
  FROM transaction_events
  WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id = ?, …);

-- libs/database/src/sqlite/sqlite-account-rows.ts
DELETE
  FROM transactions
  WHERE merchant_id = ?;

-- libs/database/src/sqlite/sqlite-account-rows.ts
DELETE
  FROM webhook_deliveries
  WHERE merchant_id = ?;

-- libs/database/src/sqlite/sqlite-account-rows.ts
DELETE
  FROM webhook_delivery_attempts
  WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE merchant_id = ?, …);

-- libs/database/src/sqlite/sqlite-account-rows.ts
SELECT merchant_id
  FROM merchants
  WHERE merchant_id = ?;

-- libs/database/src/sqlite/sqlite-account-rows.ts
UPDATE merchants
  SET last_active_at_ms = ?
  WHERE merchant_id = ?;
