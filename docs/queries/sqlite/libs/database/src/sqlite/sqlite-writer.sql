-- Every statement that libs/database/src/sqlite/sqlite-writer.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-writer.ts
BEGIN IMMEDIATE;

-- libs/database/src/sqlite/sqlite-writer.ts
BEGIN IMMEDIATE; SAVEPOINT member;

-- libs/database/src/sqlite/sqlite-writer.ts
COMMIT;

-- libs/database/src/sqlite/sqlite-writer.ts
RELEASE member; COMMIT;

-- libs/database/src/sqlite/sqlite-writer.ts
RELEASE member; SAVEPOINT member;
