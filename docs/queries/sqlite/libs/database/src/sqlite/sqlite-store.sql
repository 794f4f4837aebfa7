-- Every statement that libs/database/src/sqlite/sqlite-store.ts sends on SQLite
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- libs/database/src/sqlite/sqlite-store.ts (not parameterised: numbers written into the text, shown as <n>)
PRAGMA busy_timeout = <n>;

-- libs/database/src/sqlite/sqlite-store.ts
PRAGMA foreign_keys = ON;

-- libs/database/src/sqlite/sqlite-store.ts
PRAGMA journal_mode = WAL;

-- libs/database/src/sqlite/sqlite-store.ts
PRAGMA secure_delete = ON;

-- libs/database/src/sqlite/sqlite-store.ts
PRAGMA synchronous = NORMAL;
