import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The SQL snapshots (docs/queries/README.md): what the apps' recorder wrote (SQL_STATEMENTS_FILE,
 * libs/database/src/statement-recorder.ts) made stable, and kept in one file per dialect and
 * source file of ours.
 */

export type Dialect = 'sqlite' | 'postgres';

/** One statement as a snapshot keeps it. */
export interface SnapshotEntry {
  /** The file of ours that sent it, or UNATTRIBUTED. */
  source: string;
  /** Normalised (normaliseStatement). */
  text: string;
  /** Whether numbers were written into the text instead of sent as parameters. */
  literal: boolean;
}

/** What the recorder writes, a JSON line each. */
interface RecordedStatement {
  dialect: Dialect;
  source: string;
  text: string;
}

/** The recorder's source for a statement sent with no file of ours on the stack (TypeORM's own start-up on SQLite). */
export const UNATTRIBUTED = '(no file of ours on the stack)';

/** Migrations run once, at start-up, and are never edited after release: not in the snapshots. */
const MIGRATIONS = /^libs\/database\/src\/migrations\//;

/** A number in the text where a parameter could stand: after a comparison, LIMIT or OFFSET, in a list. */
const LITERAL_NUMBER = /((?:[=<>(,]|\bLIMIT|\bOFFSET)\s*)-?\d+(?:\.\d+)?(?=\s*(?:[),]|$|\s))/gi;
const PLACEHOLDER = /\$\d+|\?|<n>/;

/**
 * The text cut before each character `cutsAt` picks among those outside parentheses and quotes
 * (its index, and where the current piece starts): the pieces, in order.
 */
function cutAtTopLevel(text: string, cutsAt: (i: number, start: number) => boolean): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && cutsAt(i, start)) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * The items of a list, split at its own commas: commas in nested parentheses or in quotes are
 * the items' own.
 */
function splitItems(text: string): string[] {
  return cutAtTopLevel(text, (i) => text[i] === ',').map((item) => item.trim());
}

/** The index of the parenthesis that closes the one at `open`, quotes skipped; -1 if none. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Two items alike but for their placeholders' numbers. */
const alike = (a: string, b: string): boolean => a.replace(/\$\d+/g, '?') === b.replace(/\$\d+/g, '?');

/** `IN (?, ?, ?)`, `IN (?)`, `IN (CAST($1 AS …), CAST($2 AS …))` → `IN (?, …)`, `IN (CAST($1 AS …), …)`. */
function foldInLists(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(/\bIN\s*\(/gi)) {
    const open = match.index + match[0].length - 1;
    if (open < from) continue;
    const close = closing(text, open);
    if (close < 0) break;
    const items = splitItems(text.slice(open + 1, close));
    if (items.every((item) => PLACEHOLDER.test(item) && alike(item, items[0]))) {
      out += `${text.slice(from, open + 1)}${items[0]}, …)`;
      from = close + 1;
    }
  }
  return out + text.slice(from);
}

/** Where a unit (a parenthesised group, or a call: a name and its group) that starts at `at` ends; -1 if none does. */
function unitEnd(text: string, at: number): number {
  const name = /^[a-z_][a-z0-9_]*/i.exec(text.slice(at))?.[0] ?? '';
  if (text[at + name.length] !== '(') return -1;
  const close = closing(text, at + name.length);
  return close < 0 ? -1 : close + 1;
}

/**
 * A run of alike units, each starting where `start` ends a match (`, ` between them), kept as its
 * first: `VALUES (…), (…)` → `VALUES (…)`, `pg_notify('c', $1), pg_notify('c', $2)` → `pg_notify('c', $1)`.
 */
function foldRuns(text: string, start: RegExp): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(start)) {
    const at = match.index + match[0].length;
    if (at < from) continue;
    const end = unitEnd(text, at);
    if (end < 0 || !PLACEHOLDER.test(text.slice(at, end))) continue;
    let next = end;
    for (;;) {
      const separator = /^\s*,\s*/.exec(text.slice(next))?.[0];
      if (separator === undefined) break;
      const other = next + separator.length;
      const otherEnd = unitEnd(text, other);
      if (otherEnd < 0 || !alike(text.slice(other, otherEnd), text.slice(at, end))) break;
      next = otherEnd;
    }
    out += text.slice(from, end);
    from = next;
  }
  return out + text.slice(from);
}

/**
 * Lists whose length follows the data, each folded to one form: IN lists (foldInLists), the rows
 * of a VALUES, and a run of pg_notify calls (the messages a process sends together).
 */
function foldLists(text: string): string {
  return foldRuns(foldRuns(foldInLists(text), /\bVALUES\s*/gi), /(?=\bpg_notify\()/gi);
}

/** PostgreSQL's `$n`, numbered again from 1 in the order they first appear (a folded list leaves gaps). */
function renumber(text: string): string {
  const numbers = new Map<string, number>();
  return text.replace(/\$\d+/g, (placeholder) => {
    let n = numbers.get(placeholder);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(placeholder, n);
    }
    return `$${n}`;
  });
}

/**
 * A statement's text as a snapshot keeps it: whitespace collapsed, numbers written into the text
 * where a parameter could stand shown as `<n>` (TypeORM writes some in on SQLite, and every LIMIT),
 * lists whose length follows the data folded (foldLists), PostgreSQL's placeholders renumbered.
 */
export function normaliseStatement(raw: string): { text: string; literal: boolean } {
  const collapsed = raw.replace(/\s+/g, ' ').trim();
  let literal = false;
  const masked = collapsed.replace(LITERAL_NUMBER, (_, lead: string) => {
    literal = true;
    return `${lead}<n>`;
  });
  return { text: renumber(foldLists(masked)), literal };
}

/** The entries of the recorder's files, migrations left out, normalised, one each. */
export function entriesOfRecords(files: readonly string[]): Map<Dialect, SnapshotEntry[]> {
  const byDialect = new Map<Dialect, Map<string, SnapshotEntry>>();
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as RecordedStatement;
      if (MIGRATIONS.test(record.source)) continue;
      const entry = { source: record.source, ...normaliseStatement(record.text) };
      let entries = byDialect.get(record.dialect);
      if (entries === undefined) {
        entries = new Map();
        byDialect.set(record.dialect, entries);
      }
      entries.set(keyOf(entry), entry);
    }
  }
  return new Map([...byDialect].map(([dialect, entries]) => [dialect, [...entries.values()]]));
}

export const keyOf = (entry: Pick<SnapshotEntry, 'source' | 'text'>): string =>
  `${entry.source}\n${entry.text}`;

/** The snapshot file of a source: its path with `.sql` for `.ts`, under the dialect's folder. */
export function snapshotFileOf(root: string, dialect: Dialect, source: string): string {
  const name = source === UNATTRIBUTED ? 'unattributed.sql' : source.replace(/\.ts$/, '.sql');
  return join(root, dialect, name);
}

/** Clauses that start a line of their own in a snapshot, outside parentheses. */
const CLAUSE =
  /^(FROM|WHERE|GROUP BY|HAVING|ORDER BY|LIMIT|OFFSET|RETURNING|SET|VALUES|ON CONFLICT|INNER JOIN|LEFT JOIN|JOIN|UNION ALL|UNION|FOR UPDATE)\b/i;

/** The text on lines, a new one before each top-level clause; joining its lines with spaces gives the text back. */
export function layOut(text: string): string {
  const lines = cutAtTopLevel(
    text,
    (i, start) => text[i] === ' ' && i > start && CLAUSE.test(text.slice(i + 1)),
  );
  return lines.map((line, n) => (n === 0 ? line : `  ${line}`)).join('\n');
}

const HEADER = (dialect: Dialect, source: string): string =>
  [
    `-- Every statement ${source === UNATTRIBUTED ? 'sent with no file of ours on the stack' : `that ${source} sends`} on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    '-- in the sandbox flows of test/sql-snapshots.e2e-spec.ts, normalised (docs/queries/README.md).',
    '-- Written by that test with UPDATE_SQL_SNAPSHOTS=1: do not edit by hand.',
  ].join('\n');

/** Writes the dialect's snapshot files afresh: one per source, its statements sorted. */
export function writeSnapshots(root: string, dialect: Dialect, entries: readonly SnapshotEntry[]): void {
  rmSync(join(root, dialect), { recursive: true, force: true });
  const bySource = new Map<string, SnapshotEntry[]>();
  for (const entry of entries) bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), entry]);
  for (const [source, own] of bySource) {
    const file = snapshotFileOf(root, dialect, source);
    mkdirSync(dirname(file), { recursive: true });
    const statements = [...own]
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map((entry) => {
        const note = entry.literal ? ' (not parameterised: numbers written into the text, shown as <n>)' : '';
        return `-- ${source}${note}\n${layOut(entry.text)};`;
      });
    writeFileSync(file, `${HEADER(dialect, source)}\n\n${statements.join('\n\n')}\n`);
  }
}

function sqlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sqlFiles(path);
    return entry.name.endsWith('.sql') ? [path] : [];
  });
}

/** The entries a dialect's snapshot files hold: each statement is a `-- source` line, its lines, a blank line. */
export function readSnapshots(root: string, dialect: Dialect): SnapshotEntry[] {
  const entries: SnapshotEntry[] = [];
  for (const file of sqlFiles(join(root, dialect))) {
    const name = relative(join(root, dialect), file);
    const source = name === 'unattributed.sql' ? UNATTRIBUTED : name.replace(/\.sql$/, '.ts');
    for (const block of readFileSync(file, 'utf8').split(/\n\s*\n/)) {
      const lines = block.split('\n').filter((line) => line.trim() !== '');
      const comment = lines.filter((line) => line.startsWith('--'));
      const body = lines.filter((line) => !line.startsWith('--'));
      if (body.length === 0) continue;
      const text = body
        .map((line) => line.trim())
        .join(' ')
        .replace(/;$/, '');
      entries.push({ source, text, literal: comment.some((line) => line.includes('not parameterised')) });
    }
  }
  return entries;
}
