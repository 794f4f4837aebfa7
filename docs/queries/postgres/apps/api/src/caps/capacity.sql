-- Every statement that apps/api/src/caps/capacity.ts sends on PostgreSQL
-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).
-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.

-- apps/api/src/caps/capacity.ts (not parameterised: numbers written into the text, shown as <n>)
SELECT COUNT(<n>) AS "cnt"
  FROM "terminals" "TerminalEntity";
