-- Every statement that apps/api/src/request-log/postgres/postgres-request-log.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/request-log/postgres/postgres-request-log.ts
DELETE
  FROM merchant_requests
  WHERE id IN (SELECT id FROM ( SELECT id, row_number() OVER (PARTITION BY merchant_id ORDER BY at_ms DESC, id) AS n FROM merchant_requests WHERE merchant_id = ANY($1::varchar[])) ranked WHERE n > $2, …);

-- apps/api/src/request-log/postgres/postgres-request-log.ts
INSERT INTO merchant_requests (id, merchant_id, at_ms, method, path, status, duration_us, request_id) SELECT *
  FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::varchar[], $5::text[], $6::bigint[], $7::bigint[], $8::varchar[])
  ON CONFLICT (id) DO NOTHING;

-- apps/api/src/request-log/postgres/postgres-request-log.ts
SELECT at_ms, method, path, status, duration_us, request_id
  FROM merchant_requests
  WHERE merchant_id = $1
  ORDER BY at_ms DESC
  LIMIT $2;
