import { StorageUnavailableError } from '@tps/domain';
import { QueryFailedError } from 'typeorm';

/**
 * SQLite result codes that say the storage, not the statement, failed: the same write may work
 * once space, permissions or the file come back. Anything else (a constraint, a bad statement)
 * is the write's own fault and fails alone.
 */
const STORAGE_CODES = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_PERM',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_PROTOCOL',
]);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: unknown };
  if (typeof code === 'string') return code;
  return driverError === undefined ? undefined : codeOf(driverError);
}

export function isStorageFailure(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  // The write queue closed the connection to reopen it, and could not yet.
  if (error instanceof Error && error.name === 'CannotExecuteNotConnectedError') return true;
  const code = codeOf(error);
  return code !== undefined && STORAGE_CODES.has(code);
}

/** A write refused by a unique key: SQLite, PostgreSQL and MySQL each say it their own way. */
export function isUniqueViolation(error: unknown): boolean {
  // TypeORM wraps what its own queries hit; a prepared statement's error comes from the driver
  // (not always an `Error` of this realm: the native binding makes its own).
  const driverError = error instanceof QueryFailedError || codeOf(error) === 'SQLITE_CONSTRAINT';
  const message = (error as { message?: unknown } | null)?.message;
  return driverError && typeof message === 'string' && /UNIQUE|duplicate key|Duplicate entry/i.test(message);
}
