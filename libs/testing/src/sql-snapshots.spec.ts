import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  UNATTRIBUTED,
  entriesOfRecords,
  layOut,
  normaliseStatement,
  readSnapshots,
  snapshotFileOf,
  writeSnapshots,
} from './sql-snapshots';

const text = (raw: string): string => normaliseStatement(raw).text;

describe('normaliseStatement', () => {
  it('collapses whitespace', () => {
    expect(text('  SELECT a\n   FROM t\tWHERE b = ?  ')).toBe('SELECT a FROM t WHERE b = ?');
  });

  it('folds an IN list of any length to one form, on both dialects', () => {
    const forms = ['x IN (?)', 'x IN (?, ?)', 'x IN (?,?,?,?)'].map(text);
    expect(new Set(forms)).toEqual(new Set(['x IN (?, …)']));
    expect(text('a = $1 AND x IN ($2, $3, $4) AND y = $5')).toBe('a = $1 AND x IN ($2, …) AND y = $3');
    expect(text('a = $1 AND x IN ($2) AND y = $3')).toBe('a = $1 AND x IN ($2, …) AND y = $3');
    expect(text('x IN (CAST($1 AS uuid), CAST($2 AS uuid))')).toBe('x IN (CAST($1 AS uuid), …)');
  });

  it('leaves an IN list of constants as it is', () => {
    expect(text("status IN ('COMPLETED', 'FAILED')")).toBe("status IN ('COMPLETED', 'FAILED')");
  });

  it('folds the rows of a VALUES to its first, and keeps the columns of one row', () => {
    expect(text('INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?) RETURNING a')).toBe(
      'INSERT INTO t (a, b) VALUES (?, ?) RETURNING a',
    );
    expect(text('INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)')).toBe(
      text('INSERT INTO t (a, b) VALUES ($1, $2)'),
    );
    expect(text('INSERT INTO t VALUES (CAST($1 AS int), CAST($2 AS int))')).toBe(
      'INSERT INTO t VALUES (CAST($1 AS int), CAST($2 AS int))',
    );
    expect(text('WITH v (a) AS (VALUES (?), (?)) UPDATE t SET a = v.a')).toBe(
      'WITH v (a) AS (VALUES (?)) UPDATE t SET a = v.a',
    );
  });

  it('folds a run of pg_notify calls to its first', () => {
    expect(text("SELECT pg_notify('c', $1), pg_notify('c', $2), pg_notify('c', $3)")).toBe(
      "SELECT pg_notify('c', $1)",
    );
  });

  it('shows numbers written where a parameter could stand as <n>, and says so', () => {
    expect(normaliseStatement('UPDATE j SET v = 2 WHERE seq = 1 AND v < 2')).toEqual({
      text: 'UPDATE j SET v = <n> WHERE seq = <n> AND v < <n>',
      literal: true,
    });
    expect(normaliseStatement('SELECT a FROM t ORDER BY a LIMIT 21')).toEqual({
      text: 'SELECT a FROM t ORDER BY a LIMIT <n>',
      literal: true,
    });
    expect(normaliseStatement('UPDATE t SET e = e + 1 WHERE id = ?')).toEqual({
      text: 'UPDATE t SET e = e + 1 WHERE id = ?',
      literal: false,
    });
    expect(normaliseStatement('SELECT 1 AS one FROM t "t1" WHERE "s0" = ?').literal).toBe(false);
  });
});

describe('layOut', () => {
  it('breaks before the top-level clauses only, and joins back to the text', () => {
    const statement = 'SELECT a FROM t WHERE b IN (SELECT c FROM u WHERE d = ?) ORDER BY a LIMIT <n>';
    const laid = layOut(statement);
    expect(laid).toBe(
      [
        'SELECT a',
        '  FROM t',
        '  WHERE b IN (SELECT c FROM u WHERE d = ?)',
        '  ORDER BY a',
        '  LIMIT <n>',
      ].join('\n'),
    );
    expect(
      laid
        .split('\n')
        .map((line) => line.trim())
        .join(' '),
    ).toBe(statement);
  });
});

describe('snapshot files', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-sql-snapshots-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back what it wrote: sorted, one file per source, migrations left out', () => {
    const records = join(dir, 'api.jsonl');
    const lines = [
      {
        dialect: 'sqlite',
        source: 'apps/api/src/a.repository.ts',
        text: 'SELECT b FROM t WHERE x IN (?, ?)',
      },
      { dialect: 'sqlite', source: 'apps/api/src/a.repository.ts', text: 'SELECT b FROM t WHERE x IN (?)' },
      { dialect: 'sqlite', source: 'apps/api/src/a.repository.ts', text: 'DELETE FROM t WHERE seq = 3' },
      { dialect: 'sqlite', source: UNATTRIBUTED, text: 'PRAGMA foreign_keys = ON' },
      {
        dialect: 'sqlite',
        source: 'libs/database/src/migrations/api/1-x.ts',
        text: 'CREATE TABLE t (a int)',
      },
      { dialect: 'postgres', source: 'apps/api/src/a.repository.ts', text: 'SELECT 1' },
    ];
    writeFileSync(records, lines.map((line) => JSON.stringify(line)).join('\n'));
    const entries = entriesOfRecords([records, join(dir, 'missing.jsonl')]);
    const sqlite = entries.get('sqlite') ?? [];
    expect(sqlite).toHaveLength(3);

    const root = join(dir, 'queries');
    writeSnapshots(root, 'sqlite', sqlite);
    const file = snapshotFileOf(root, 'sqlite', 'apps/api/src/a.repository.ts');
    expect(file).toBe(join(root, 'sqlite', 'apps/api/src/a.repository.sql'));
    const written = readFileSync(file, 'utf8');
    expect(written.indexOf('DELETE FROM t')).toBeLessThan(written.indexOf('SELECT b'));
    expect(written).toContain('-- apps/api/src/a.repository.ts (not parameterised');
    expect(readFileSync(join(root, 'sqlite', 'unattributed.sql'), 'utf8')).toContain(
      'PRAGMA foreign_keys = ON;',
    );

    const key = (e: { source: string; text: string; literal: boolean }): string =>
      `${e.source} ${e.text} ${e.literal}`;
    expect(readSnapshots(root, 'sqlite').map(key).sort()).toEqual(sqlite.map(key).sort());
    expect(readSnapshots(root, 'postgres')).toEqual([]);
  });
});
