import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { StorageUnavailableError } from '@tps/domain';
import {
  ConcurrentWriteError,
  isStorageFailure,
  isUniqueViolation,
  isWriteConflict,
  timeoutKindOf,
} from './storage-failure';

/** An error as node-postgres makes it: a SQLSTATE in `code`. */
function postgresError(code: string, message = 'postgres said no'): Error {
  return Object.assign(new Error(message), { code });
}

/** The same error as TypeORM wraps it when its own query hit it. */
function wrapped(error: Error): QueryFailedError {
  return new QueryFailedError('SELECT 1', [], error);
}

describe('isStorageFailure on PostgreSQL', () => {
  it.each([
    ['08006', 'connection failure'],
    ['08001', 'unable to connect'],
    ['53100', 'disk full'],
    ['57P01', 'terminated by the administrator'],
    ['57P03', 'the server is starting up'],
    ['58030', 'an I/O error'],
    ['25006', 'a read-only server'],
    ['55000', 'a database not accepting connections'],
    ['57014', 'the statement timeout'],
    ['55P03', 'the lock timeout'],
  ])('%s (%s) is the storage failing', (code) => {
    expect(isStorageFailure(postgresError(code))).toBe(true);
    expect(isStorageFailure(wrapped(postgresError(code)))).toBe(true);
  });

  it.each([
    ['ECONNREFUSED', 'the server is not listening'],
    ['ECONNRESET', 'the connection was cut'],
    ['ETIMEDOUT', 'no answer'],
  ])('a socket error %s (%s) is the storage failing', (code) => {
    expect(isStorageFailure(postgresError(code))).toBe(true);
  });

  it("TypeORM's runner released under a transaction whose connection the server ended is the storage failing", () => {
    expect(isStorageFailure(new QueryRunnerAlreadyReleasedError())).toBe(true);
  });

  it('node-postgres losing its connection without a code is the storage failing', () => {
    expect(isStorageFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStorageFailure(new Error('Query read timeout'))).toBe(true);
    expect(isStorageFailure(wrapped(new Error('timeout exceeded when trying to connect')))).toBe(true);
  });

  it.each([
    ['23505', 'a unique key'],
    ['23502', 'a missing value'],
    ['42601', 'a syntax error'],
    ['42703', 'an unknown column'],
    ['22003', 'a number out of range'],
    ['40001', 'a serialization failure'],
  ])("%s (%s) is the write's own fault, not the storage's", (code) => {
    expect(isStorageFailure(postgresError(code))).toBe(false);
  });

  it('tells a unique violation and a write conflict', () => {
    expect(
      isUniqueViolation(wrapped(postgresError('23505', 'duplicate key value violates unique constraint'))),
    ).toBe(true);
    expect(isWriteConflict(postgresError('40001'))).toBe(true);
    expect(isWriteConflict(wrapped(postgresError('40P01')))).toBe(true);
    expect(isWriteConflict(postgresError('23505'))).toBe(false);
  });
});

describe('isStorageFailure on SQLite', () => {
  it('keeps its codes: a full disk fails the storage, a constraint the write', () => {
    expect(isStorageFailure(postgresError('SQLITE_FULL'))).toBe(true);
    expect(isStorageFailure(postgresError('SQLITE_CONSTRAINT'))).toBe(false);
  });

  it('a write that found its rows stored meanwhile by another is a conflict: it runs again', () => {
    expect(isWriteConflict(new ConcurrentWriteError(postgresError('23505')))).toBe(true);
    expect(isWriteConflict(postgresError('23505'))).toBe(false);
  });
});

describe('timeoutKindOf', () => {
  it.each([
    ['55P03', 'lock'],
    ['57014', 'statement'],
  ])('%s is the %s timeout, wrapped or not', (code, kind) => {
    expect(timeoutKindOf(postgresError(code))).toBe(kind);
    expect(timeoutKindOf(wrapped(postgresError(code)))).toBe(kind);
    expect(timeoutKindOf(new StorageUnavailableError(wrapped(postgresError(code))))).toBe(kind);
  });

  it("tells the pool's and the client's own bounds by their messages", () => {
    expect(timeoutKindOf(new Error('timeout exceeded when trying to connect'))).toBe('acquire');
    expect(timeoutKindOf(new Error('Query read timeout'))).toBe('statement');
  });

  it('is nothing for another failure', () => {
    expect(timeoutKindOf(postgresError('08006'))).toBeUndefined();
    expect(timeoutKindOf(new Error('boom'))).toBeUndefined();
  });
});
