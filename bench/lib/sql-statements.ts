import { readFileSync, statSync } from 'node:fs';

/**
 * The apps' statement counter: started with SQL_STATEMENT_COUNT_FILE=<path>, an app counts every
 * statement SQLite runs on its connections and keeps the count written in that file (a number,
 * rewritten every 100 ms and on exit). Apps built before the counter never write it.
 */
export const statementCountEnv = (file: string): Record<string, string> => ({
  SQL_STATEMENT_COUNT_FILE: file,
});

/** The count in the file's text; undefined while the file is being rewritten (empty or cut). */
export function parseStatementCount(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

function readCount(file: string): { writtenAt: number; count: number | undefined } | undefined {
  try {
    const writtenAt = statSync(file).mtimeMs;
    return { writtenAt, count: parseStatementCount(readFileSync(file, 'utf8')) };
  } catch {
    return undefined;
  }
}

/**
 * The statements an app has run until now: the count of the first write of the file after this
 * call (so every statement before the call is in it); undefined when none comes within
 * `timeoutMs` (an app without the counter).
 */
export async function readStatementCount(file: string, timeoutMs = 2000): Promise<number | undefined> {
  const asked = Date.now();
  const deadline = asked + timeoutMs;
  // A file's time has finer steps than Date.now(): a write made just before the call, in the same
  // millisecond, would seem later than it. A write after the call changes the time seen at the call.
  const before = readCount(file)?.writtenAt ?? -Infinity;
  for (;;) {
    const read = readCount(file);
    if (read !== undefined && read.writtenAt > Math.max(asked, before) && read.count !== undefined) {
      return read.count;
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
