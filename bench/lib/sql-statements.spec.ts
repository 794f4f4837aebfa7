import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStatementCount, readStatementCount } from './sql-statements';

describe('parseStatementCount', () => {
  it('reads the number the app wrote', () => {
    expect(parseStatementCount('1234')).toBe(1234);
    expect(parseStatementCount('0\n')).toBe(0);
  });

  it('says nothing of a file being rewritten', () => {
    expect(parseStatementCount('')).toBeUndefined();
    expect(parseStatementCount('12a')).toBeUndefined();
  });
});

describe('readStatementCount', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sql-count-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for a write after it was asked, as the app rewrites the file', async () => {
    const file = join(dir, 'count');
    writeFileSync(file, '10');
    let count = 10;
    const app = setInterval(() => writeFileSync(file, String(++count)), 20);
    try {
      expect(await readStatementCount(file, 1000)).toBeGreaterThan(10);
    } finally {
      clearInterval(app);
    }
  });

  it('gives undefined when nothing writes the file (an app without the counter)', async () => {
    expect(await readStatementCount(join(dir, 'never'), 100)).toBeUndefined();
    writeFileSync(join(dir, 'stale'), '5');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await readStatementCount(join(dir, 'stale'), 100)).toBeUndefined();
  });
});
