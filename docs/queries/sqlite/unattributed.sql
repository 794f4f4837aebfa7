-- Every statement sent with no file of ours on the stack on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- (no file of ours on the stack)
BEGIN TRANSACTION;

-- (no file of ours on the stack)
COMMIT;

-- (no file of ours on the stack)
CREATE TABLE "migrations" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "timestamp" bigint NOT NULL, "name" varchar NOT NULL);

-- (no file of ours on the stack) (not parameterised: numbers written into the text, shown as <n>)
INSERT INTO "migrations"("timestamp", "name")
  VALUES (<n>, ?);

-- (no file of ours on the stack) (not parameterised: numbers written into the text, shown as <n>)
PRAGMA busy_timeout = <n>;

-- (no file of ours on the stack)
PRAGMA foreign_keys = OFF;

-- (no file of ours on the stack)
PRAGMA foreign_keys = ON;

-- (no file of ours on the stack)
PRAGMA journal_mode = WAL;

-- (no file of ours on the stack)
PRAGMA secure_delete = ON;

-- (no file of ours on the stack)
PRAGMA synchronous = NORMAL;

-- (no file of ours on the stack)
SELECT *
  FROM "migrations" "migrations"
  ORDER BY "id" DESC;

-- (no file of ours on the stack)
SELECT *
  FROM "sqlite_master"
  WHERE "type" = 'table' AND "name" = 'migrations';
