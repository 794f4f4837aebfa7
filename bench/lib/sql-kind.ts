/** The table a write names after its verb, quotes and schema kept as written. */
const WRITE_IN_WITH = /\b(?:INSERT\s+INTO|DELETE\s+FROM)\s+([\w."]+)|\bUPDATE\s+([\w."]+)\s+SET\b/i;
const FIRST_WORD = /^\s*([A-Za-z]+)/;
const TARGET: Record<string, RegExp> = {
  INSERT: /^\s*INSERT\s+INTO\s+([\w."]+)/i,
  UPDATE: /^\s*UPDATE\s+([\w."]+)/i,
  DELETE: /^\s*DELETE\s+FROM\s+([\w."]+)/i,
};

const unquoted = (name: string): string => name.replace(/"/g, '');

/** The first table a read names (`FROM t`, `FROM "t" "alias"`), if any. */
const READ_FROM = /\bFROM\s+([\w."]+)/i;

/** `SELECT <table>` when the read names one, so that reads of different tables are told apart. */
const readKind = (sql: string): string => {
  const table = READ_FROM.exec(sql)?.[1];
  return table === undefined ? 'SELECT' : `SELECT ${unquoted(table)}`;
};

/**
 * What a statement does, from its SQL text: `INSERT <table>`, `UPDATE <table>` or `DELETE <table>`
 * for a write (a `WITH` whose body writes included), `SELECT <table>` for a read naming a table
 * (its first `FROM`), else its first keyword (`SELECT`, `BEGIN`, …).
 */
export function statementKind(sql: string): string {
  const first = (FIRST_WORD.exec(sql)?.[1] ?? '?').toUpperCase();
  const target = TARGET[first]?.exec(sql)?.[1];
  if (target !== undefined) return `${first} ${unquoted(target)}`;
  if (first === 'WITH') {
    const match = WRITE_IN_WITH.exec(sql);
    if (match !== null) {
      const verb = match[2] !== undefined ? 'UPDATE' : /^INSERT/i.test(match[0]) ? 'INSERT' : 'DELETE';
      return `${verb} ${unquoted(match[1] ?? match[2])}`;
    }
    return readKind(sql);
  }
  return first === 'SELECT' ? readKind(sql) : first;
}

/** Whether a kind from `statementKind` changes rows. */
export const isWrite = (kind: string): boolean => /^(INSERT|UPDATE|DELETE) /.test(kind);
