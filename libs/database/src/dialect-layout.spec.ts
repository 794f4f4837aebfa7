import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * What tells the stores apart, where the rest of the code asks the store adapter (storeOf, portsOf):
 * a driver's name, or whether the database URL is a SQLite file.
 */
const DIALECT_TEST =
  /\btype\s*[!=]==?\s*['"](sqlite|better-sqlite3|postgres|mysql|mariadb)['"]|\bon(Sqlite|Postgres)\b|\bsqlitePath\([^)]*\)\s*[!=]==?\s*undefined/;
/** TypeORM's query runners' own flags: the writer opens and ends transactions with SQL of its own. */
const PRIVATE_FIELDS = /\b(isTransactionActive|transactionDepth)\b/;
/**
 * A line of code where an SQL statement starts: a statement's keyword at the start of the line
 * (a template's next line) or of a string. Comments are not code.
 */
const SQL_STATEMENT =
  /(^|['"`(;]\s*)(SELECT|UPDATE|INSERT INTO|DELETE FROM|WITH \w+ AS \(|PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|CREATE|DROP|ALTER|TRUNCATE|VACUUM|LOCK|LISTEN|UNLISTEN|NOTIFY)\b/;
const COMMENT = /^(\/\/|\/\*|\*)/;
/**
 * TypeORM's own ways to the rows (repositories, the query builder, the entity manager's finds and
 * saves): everything goes through `sqlOf`, entity-shaped statements through EntityTable. TypeORM
 * keeps the entities, the migrations and the data sources.
 */
const TYPEORM_ROWS =
  /\b(InjectRepository|getRepository|createQueryBuilder)\b|\bRepository<|\b(manager|dataSource|runner)\.(find\w*|count\w*|exist\w*|insert|update|upsert|delete|save|remove|increment|decrement)\(/;

/**
 * Where SQL and dialect tests belong: the store adapters (a folder named for its store, in a
 * library or beside an app's port), migrations, tests' own stores.
 */
const ADAPTERS = [
  /^(apps|libs)\/[^/]+\/src\/(.+\/)?(sqlite|postgres)\//,
  /^libs\/database\/src\/(migrations|testing)\//,
  /^libs\/testing\//,
];
/** The data-source factory reads the driver's name off the URL. */
const DIALECT_HOMES = [...ADAPTERS, /^libs\/database\/src\/data-source-options\.ts$/];

/**
 * How many are outside them, at most (`<file>:<line>` of each in the failure): none; a new one
 * goes into an adapter.
 */
const CEILINGS = { sqlStatements: 0, dialectTests: 0 };

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = [...sources('apps'), ...sources('libs')].map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), 'utf8'),
}));

/** `<file>:<line>` of each line of code outside `homes` that `pattern` finds. */
function linesOutside(homes: readonly RegExp[], pattern: RegExp): string[] {
  return files
    .filter(({ path }) => !homes.some((home) => home.test(path)))
    .flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, i) => {
        const code = line.trim();
        return !COMMENT.test(code) && pattern.test(code) ? [`${path}:${i + 1}`] : [];
      }),
    );
}

describe('where the stores differ', () => {
  it.each([
    ['SQL statements outside the store adapters', ADAPTERS, SQL_STATEMENT, CEILINGS.sqlStatements],
    [
      'dialect tests outside the store adapters and the data-source factory',
      DIALECT_HOMES,
      DIALECT_TEST,
      CEILINGS.dialectTests,
    ],
  ])('has no more %s than before (the ceiling goes down with them)', (what, homes, pattern, ceiling) => {
    const found = linesOutside(homes, pattern);
    if (found.length > ceiling)
      throw new Error(
        `${found.length} ${what}, more than ${ceiling}: put the new ones in an adapter (sqlite/, postgres/)\n${found.join('\n')}`,
      );
    if (found.length < ceiling)
      throw new Error(`${found.length} ${what}, fewer than ${ceiling}: lower CEILINGS to ${found.length}`);
  });

  it('reaches rows through sqlOf alone, never through TypeORM repositories, query builders or entity-manager calls', () => {
    // Migrations and the tests' own stores set up what they check as they like.
    expect(
      linesOutside([/^libs\/database\/src\/(migrations|testing)\//, /^libs\/testing\//], TYPEORM_ROWS),
    ).toEqual([]);
  });

  it("uses no TypeORM query runner's private transaction flags", () => {
    expect(
      files.filter(({ text }) => PRIVATE_FIELDS.test(text)).map(({ path }) => relative('.', path)),
    ).toEqual([]);
  });
});
