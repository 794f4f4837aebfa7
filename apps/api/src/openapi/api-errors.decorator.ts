import { ApiExtension } from '@nestjs/swagger';
import type { ErrorCode } from '@tps/domain';

/** The operation extension that carries a route's own error codes to the document finisher. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

/**
 * Declares the error codes a route can answer besides those it shares with every route or every
 * signed route (ANY_ROUTE_ERRORS, SIGNED_ERRORS: the finisher adds those).
 * The finisher turns them into one response per status with the shared error schema.
 */
export const ApiErrors = (...codeSets: ReadonlyArray<ErrorCode | readonly ErrorCode[]>): MethodDecorator =>
  ApiExtension(ERROR_CODES_EXTENSION, [...new Set(codeSets.flat())]);

/**
 * What every route can answer, /health included: the body checks run before routing, so any
 * request may meet PAR-001 (unreadable body or URL, nesting, a duplicate key), PAR-002 (a lone
 * surrogate, a number beyond a double), PAR-005 (over 1 MiB) and PAR-006 (a body that is not
 * JSON); INT-001; and INT-002, which a replica that is stopping answers to every request (its
 * own liveness and readiness answer their own 503 instead). Behind the compose profile's load
 * balancer, any request may also meet its own PAR-007 (the request did not arrive whole in time),
 * INT-005 and INT-006 (its replica went away, or said nothing in time): declared so that a caller checking answers against the document knows them.
 */
export const ANY_ROUTE_ERRORS: readonly ErrorCode[] = [
  'PAR-001',
  'PAR-002',
  'PAR-005',
  'PAR-006',
  'INT-001',
  'INT-002',
  'PAR-007',
  'INT-005',
  'INT-006',
];

/**
 * What every signed route can answer: a bad signature or timestamp, a hosted sandbox's read-only
 * demo credentials (AUTH-004, on any request that is not a read), the merchant's rate limit, and
 * INT-004 when the merchant's secret key is sealed under a key the service lacks (and INT-002,
 * which every route answers: authentication reads the merchant from storage).
 */
export const SIGNED_ERRORS: readonly ErrorCode[] = [
  'AUTH-001',
  'AUTH-002',
  'AUTH-004',
  'RATE-001',
  'INT-004',
];

/** A route that talks to one terminal: unknown terminal, offline, or no answer in time. */
export const TERMINAL_ROUTE_ERRORS: readonly ErrorCode[] = ['NF-002', 'TER-001', 'TER-002'];

/**
 * A payment operation that starts a transaction; INT-003 when the terminal answered but its
 * outcome could not be stored (contract §19).
 */
export const PAYMENT_ERRORS: readonly ErrorCode[] = [
  ...TERMINAL_ROUTE_ERRORS,
  // The account's cap of pending webhook deliveries (contract §22).
  'CAP-001',
  'INT-003',
  'PAR-002',
  'PAR-003',
  'PAR-004',
  'TER-003',
  'TRX-001',
];

/** An operation that acts on an earlier transaction through its business state (contract §9). */
export const FOLLOW_UP_ERRORS: readonly ErrorCode[] = [
  ...PAYMENT_ERRORS,
  'NF-001',
  'TRX-003',
  'TRX-004',
  'TRX-005',
  'TRX-006',
  'TRX-007',
];

/** How a sync operation can end on the terminal instead of with the acquirer's answer. */
export const SYNC_OUTCOME_ERRORS: readonly ErrorCode[] = ['TER-101', 'TER-102', 'TER-103', 'TER-104'];
