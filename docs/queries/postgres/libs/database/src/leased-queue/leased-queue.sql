-- Every statement that libs/database/src/leased-queue/leased-queue.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT 1 AS claimable
  FROM print_jobs c
  WHERE (c.status IN ('COMPLETED', 'FAILED') AND c.webhook_url <> '' AND c.callback IS NULL AND (c.callback_lease_until < $1 AND (c.callback_owner IS NULL OR c.callback_owner <> $2))) OR (c.status IN ('COMPLETED', 'FAILED') AND c.webhook_url <> '' AND c.callback IS NULL AND c.callback_lease_until IS NULL)
  LIMIT <n>;

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT 1 AS claimable
  FROM webhook_deliveries c
  WHERE (c.state = 'pending' AND ((c.lease_until < $1 AND (c.lease_owner IS NULL OR c.lease_owner <> $2)) OR (c.lease_until IS NULL AND COALESCE(c.next_attempt_at, c.created_at) < $3)) AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.transaction_id = c.transaction_id AND e.position < c.position AND e.state = 'pending'))
  LIMIT <n>;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE maintenance_leases
  SET holder = '', expires_at_ms = $1
  WHERE holder = $2;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE print_jobs
  SET callback_lease_until = $1
  WHERE callback_owner = $2 AND print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL AND print_job_id IN ($3, …)
  RETURNING print_job_id AS id;

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
UPDATE print_jobs
  SET callback_owner = $1, callback_lease_until = $2, callback_lease_epoch = callback_lease_epoch + 1
  WHERE print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL AND substr(callback_owner, <n>, $3) = $4
  RETURNING print_job_id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE print_jobs
  SET callback_owner = NULL, callback_lease_until = $1
  WHERE callback_owner = $2 AND print_jobs.status IN ('COMPLETED', 'FAILED') AND print_jobs.webhook_url <> '' AND print_jobs.callback IS NULL;

-- libs/database/src/leased-queue/leased-queue.ts (not parameterised: numbers written into the text, shown as <n>)
UPDATE webhook_deliveries
  SET lease_owner = $1, lease_until = $2, lease_epoch = lease_epoch + 1
  WHERE webhook_deliveries.state = 'pending' AND substr(lease_owner, <n>, $3) = $4
  RETURNING id, merchant_id, transaction_id, position, url, attempt_count, first_attempt_at, next_attempt_at, created_at, lease_epoch;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_deliveries
  SET lease_owner = NULL, lease_until = $1
  WHERE lease_owner = $2 AND webhook_deliveries.state = 'pending';

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_deliveries
  SET lease_until = $1
  WHERE lease_owner = $2 AND webhook_deliveries.state = 'pending'
  RETURNING id AS id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET lease_until = $1
  WHERE owner = $2
  RETURNING slot AS id;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET owner = $1, lease_until = $2
  WHERE (webhook_destination_slots.destination = $3 AND webhook_destination_slots.slot <= $4) AND slot = ANY(ARRAY(SELECT c.slot FROM webhook_destination_slots c WHERE (c.destination = $5 AND c.slot <= $6) AND ((c.lease_until < $7 AND (c.owner IS NULL OR c.owner <> $8)) OR c.lease_until IS NULL) ORDER BY c.slot LIMIT $9 FOR UPDATE SKIP LOCKED))
  RETURNING slot;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET owner = NULL, lease_until = $1
  WHERE owner = $2;

-- libs/database/src/leased-queue/leased-queue.ts
UPDATE webhook_destination_slots
  SET owner = NULL, lease_until = $1
  WHERE owner = $2 AND (webhook_destination_slots.destination = $3 AND webhook_destination_slots.slot = $4);
