import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** What tells the stores apart, where the rest of the code asks the store adapter (storeOf). */
const DIALECT_TEST =
  /\btype\s*[!=]==?\s*['"](sqlite|better-sqlite3|postgres|mysql|mariadb)['"]|\bon(Sqlite|Postgres)\b/;
/** TypeORM's query runners' own flags: the writer opens and ends transactions with SQL of its own. */
const PRIVATE_FIELDS = /\b(isTransactionActive|transactionDepth)\b/;

/** Where a dialect test belongs: the store adapters, the data-source factory, migrations, tests. */
const DIALECT_HOMES = [
  /^libs\/database\/src\/(sqlite|postgres|migrations|testing)\//,
  /^libs\/database\/src\/data-source-options\.ts$/,
  /^libs\/testing\//,
];

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

describe('where the stores differ', () => {
  it('tests the dialect only in a store adapter, the data-source factory or a migration', () => {
    const misplaced = files
      .filter(({ path, text }) => DIALECT_TEST.test(text) && !DIALECT_HOMES.some((home) => home.test(path)))
      .map(({ path }) => path);
    expect(misplaced).toEqual([]);
  });

  it("uses no TypeORM query runner's private transaction flags", () => {
    expect(
      files.filter(({ text }) => PRIVATE_FIELDS.test(text)).map(({ path }) => relative('.', path)),
    ).toEqual([]);
  });
});
