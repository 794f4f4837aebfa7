-- Every statement that libs/database/src/leased-queue/leased-queue.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT 1 AS claimable
  FROM print_jobs c
  WHERE (c.status IN ('COMPLETED', 'FAILED') AND c.webhook_url <> '' AND c.callback IS NULL AND (c.callback_lease_until < ? AND (c.callback_owner IS NULL OR c.callback_owner <> ?))) OR (c.status IN ('COMPLETED', 'FAILED') AND c.webhook_url <> '' AND c.callback IS NULL AND c.callback_lease_until IS NULL)
  LIMIT <n>;

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT 1 AS claimable
  FROM webhook_deliveries c
  WHERE (c.state = 'pending' AND ((c.lease_until < ? AND (c.lease_owner IS NULL OR c.lease_owner <> ?)) OR (c.lease_until IS NULL AND COALESCE(c.next_attempt_at, c.created_at) < ?)) AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.transaction_id = c.transaction_id AND e.position < c.position AND e.state = 'pending'))
  LIMIT <n>;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE maintenance_leases
  SET holder = '', expires_at_ms = ?
  WHERE holder = ?;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE print_jobs
  SET callback_lease_until = ?
  WHERE callback_owner = ? AND print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL AND print_job_id IN (?, …)
  RETURNING print_job_id AS id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE print_jobs
  SET callback_owner = ?, callback_lease_until = ?, callback_lease_epoch = callback_lease_epoch + 1
  WHERE print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL
  RETURNING print_job_id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE print_jobs
  SET callback_owner = NULL, callback_lease_until = ?
  WHERE callback_owner = ? AND print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_deliveries
  SET lease_owner = ?, lease_until = ?, lease_epoch = lease_epoch + 1
  WHERE webhook_deliveries.state = 'pending'
  RETURNING id, merchant_id, transaction_id, position, url, attempt_count, first_attempt_at, next_attempt_at, created_at, lease_epoch;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_deliveries
  SET lease_owner = NULL, lease_until = ?
  WHERE lease_owner = ? AND webhook_deliveries.state = 'pending';

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_deliveries
  SET lease_until = ?
  WHERE lease_owner = ? AND webhook_deliveries.state = 'pending'
  RETURNING id AS id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET lease_until = ?
  WHERE owner = ?
  RETURNING slot AS id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET owner = NULL, lease_until = ?
  WHERE owner = ?;
