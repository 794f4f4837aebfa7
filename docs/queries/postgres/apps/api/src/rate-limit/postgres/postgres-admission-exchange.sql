-- Every statement that apps/api/src/rate-limit/postgres/postgres-admission-exchange.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/rate-limit/postgres/postgres-admission-exchange.ts
WITH added AS (INSERT INTO rate_limit_counts (scope, rate_key, replica, bucket, admitted) SELECT $1, k, $2, b, n FROM unnest($3::varchar[], $4::bigint[], $5::bigint[]) AS t(k, b, n) ON CONFLICT (scope, rate_key, replica, bucket) DO UPDATE SET admitted = rate_limit_counts.admitted + EXCLUDED.admitted) SELECT rate_key, SUM(admitted) AS admitted
  FROM rate_limit_counts
  WHERE scope = $1 AND replica <> $2 AND bucket >= $6
  GROUP BY rate_key;

-- apps/api/src/rate-limit/postgres/postgres-admission-exchange.ts
WITH added AS (INSERT INTO rate_limit_counts (scope, rate_key, replica, bucket, admitted) SELECT $1, k, $2, b, n FROM unnest($3::varchar[], $4::bigint[], $5::bigint[]) AS t(k, b, n) ON CONFLICT (scope, rate_key, replica, bucket) DO UPDATE SET admitted = rate_limit_counts.admitted + EXCLUDED.admitted), aged AS (DELETE FROM rate_limit_counts WHERE scope = $1 AND bucket < $6) SELECT rate_key, SUM(admitted) AS admitted
  FROM rate_limit_counts
  WHERE scope = $1 AND replica <> $2 AND bucket >= $6
  GROUP BY rate_key;
