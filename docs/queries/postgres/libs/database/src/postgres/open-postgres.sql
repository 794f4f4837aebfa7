-- Every statement that libs/database/src/postgres/open-postgres.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/postgres/open-postgres.ts
COMMIT;

-- libs/database/src/postgres/open-postgres.ts
CREATE TABLE "migrations" ("id" SERIAL NOT NULL, "timestamp" bigint NOT NULL, "name" character varying NOT NULL, CONSTRAINT "PK_8c82d7f526340ab734260ea46be" PRIMARY KEY ("id"));

-- libs/database/src/postgres/open-postgres.ts
INSERT INTO "migrations"("timestamp", "name")
  VALUES ($1, $2);

-- libs/database/src/postgres/open-postgres.ts
SELECT *
  FROM "information_schema"."tables"
  WHERE "table_schema" = 'public' AND "table_name" = 'migrations';

-- libs/database/src/postgres/open-postgres.ts
SELECT *
  FROM "migrations" "migrations"
  ORDER BY "id" DESC;

-- libs/database/src/postgres/open-postgres.ts
SELECT *
  FROM current_schema();

-- libs/database/src/postgres/open-postgres.ts
SELECT pg_advisory_unlock($1);

-- libs/database/src/postgres/open-postgres.ts
SELECT pg_try_advisory_lock($1) AS locked;

-- libs/database/src/postgres/open-postgres.ts
SELECT version();

-- libs/database/src/postgres/open-postgres.ts
START TRANSACTION;
