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

/**
 * PostgreSQL SQLSTATE classes and codes that say the server, not the statement, failed: a lost or
 * refused connection (08), no space or memory (53), the server shutting down or starting (57P),
 * an I/O error (58), a read-only server (25006), a database not accepting connections (55000, as
 * while it is being dropped or fenced off), a wait past its bound: the statement timeout (57014)
 * and the lock timeout (55P03).
 */
const POSTGRES_CLASSES = ['08', '53', '57P', '58'];
const POSTGRES_CODES = new Set(['25006', '55000', '57014', '55P03']);

/** What node-postgres and Node's sockets say when no answer came from the server at all. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** TypeORM's errors for a connection that is gone: the statement was never sent. */
const NOT_CONNECTED = new Set(['CannotExecuteNotConnectedError', 'QueryRunnerAlreadyReleasedError']);

const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|terminating connection/i;

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: unknown };
  if (typeof code === 'string') return code;
  return driverError === undefined ? undefined : codeOf(driverError);
}

export function isStorageFailure(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  // The write queue closed the connection to reopen it, and could not yet.
  // TypeORM releases a query runner whose connection the server ended mid-transaction; its
  // COMMIT then fails this way, and the server has rolled the transaction back.
  if (error instanceof Error && NOT_CONNECTED.has(error.name)) return true;
  const code = codeOf(error);
  if (code !== undefined) {
    if (STORAGE_CODES.has(code) || CONNECTION_CODES.has(code) || POSTGRES_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_CLASSES.some((prefix) => code.startsWith(prefix));
  }
  return CONNECTION_MESSAGES.test(messageOf(error));
}

function messageOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { message, driverError } = error as { message?: unknown; driverError?: unknown };
  return `${typeof message === 'string' ? message : ''} ${driverError === undefined ? '' : messageOf(driverError)}`;
}

/**
 * A write whose decision another write made stale before it committed: one that stored the same
 * rows meanwhile (by another write, of this process or another), found by a unique key. Thrown by
 * the write itself, so that it runs again and decides from what is stored now.
 */
export class ConcurrentWriteError extends Error {
  constructor(override readonly cause: unknown) {
    super('another write stored the same rows meanwhile; the write runs again');
  }
}

/**
 * A write that lost to another one at the same time on PostgreSQL (a serialization failure, a
 * deadlock, or a ConcurrentWriteError): nothing of it is stored, and the same write may simply
 * run again.
 */
export function isWriteConflict(error: unknown): boolean {
  if (error instanceof ConcurrentWriteError) return true;
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

/** A write refused by a unique key: SQLite, PostgreSQL and MySQL each say it their own way. */
export function isUniqueViolation(error: unknown): boolean {
  // TypeORM wraps what its own queries hit; a prepared statement's error comes from the driver
  // (not always an `Error` of this realm: the native binding makes its own).
  const driverError = error instanceof QueryFailedError || codeOf(error) === 'SQLITE_CONSTRAINT';
  const message = (error as { message?: unknown } | null)?.message;
  return driverError && typeof message === 'string' && /UNIQUE|duplicate key|Duplicate entry/i.test(message);
}

/**
 * A read whose storage failure surfaces as StorageUnavailableError, as a write's does (SerialWriter):
 * a caller that must tell "not stored" from "unknown" (contract §19) sees which one it got.
 */
export async function storageRead<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    throw isStorageFailure(error) && !(error instanceof StorageUnavailableError)
      ? new StorageUnavailableError(error)
      : error;
  }
}

/** Which bounded wait on the database an error is the end of (contract, "Every wait bounded"). */
export type DatabaseTimeoutKind = 'acquire' | 'statement' | 'lock';
export const DATABASE_TIMEOUT_KINDS: readonly DatabaseTimeoutKind[] = ['acquire', 'statement', 'lock'];

/**
 * The wait whose bound ended in `error`, looked for through what wraps it (a contract error's
 * cause, TypeORM's driver error): the pool's or the connection's (`acquire`), the server's
 * statement timeout or the client's own past it (`statement`), the lock timeout (`lock`).
 */
export function timeoutKindOf(error: unknown, depth = 0): DatabaseTimeoutKind | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, message, cause, driverError } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    driverError?: unknown;
  };
  if (code === '55P03') return 'lock';
  if (code === '57014' || (typeof message === 'string' && /Query read timeout/i.test(message)))
    return 'statement';
  if (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|connection timeout/i.test(message)
  )
    return 'acquire';
  return timeoutKindOf(driverError, depth + 1) ?? timeoutKindOf(cause, depth + 1);
}
