/**
 * The catalogue of error codes of contract §4: each code fixes its HTTP status and its type,
 * so a code can never be answered with the wrong status.
 */
export const ERROR_CATALOGUE = {
  'PAR-001': { status: 400, type: 'PARAMETER' },
  'PAR-002': { status: 400, type: 'PARAMETER' },
  'PAR-003': { status: 400, type: 'PARAMETER' },
  'PAR-004': { status: 400, type: 'PARAMETER' },
  'PAR-005': { status: 413, type: 'PARAMETER' },
  'PAR-006': { status: 415, type: 'PARAMETER' },
  'AUTH-001': { status: 401, type: 'AUTHENTICATION' },
  'AUTH-002': { status: 401, type: 'AUTHENTICATION' },
  'AUTH-003': { status: 401, type: 'AUTHENTICATION' },
  'AUTH-004': { status: 403, type: 'AUTHENTICATION' },
  'NF-000': { status: 404, type: 'NOT_FOUND' },
  'NF-001': { status: 404, type: 'NOT_FOUND' },
  'NF-002': { status: 404, type: 'NOT_FOUND' },
  'NF-003': { status: 404, type: 'NOT_FOUND' },
  'NF-004': { status: 404, type: 'NOT_FOUND' },
  'NF-005': { status: 404, type: 'NOT_FOUND' },
  'TER-003': { status: 409, type: 'TERMINAL' },
  'TER-004': { status: 409, type: 'TERMINAL' },
  'TER-005': { status: 409, type: 'TERMINAL' },
  'TER-101': { status: 409, type: 'TERMINAL' },
  'TER-102': { status: 409, type: 'TERMINAL' },
  'TER-103': { status: 409, type: 'TERMINAL' },
  'TER-104': { status: 409, type: 'TERMINAL' },
  'TRX-001': { status: 409, type: 'TRANSACTION' },
  'TRX-002': { status: 409, type: 'TRANSACTION' },
  'TRX-003': { status: 409, type: 'TRANSACTION' },
  'TRX-004': { status: 409, type: 'TRANSACTION' },
  'TRX-005': { status: 409, type: 'TRANSACTION' },
  'TRX-006': { status: 409, type: 'TRANSACTION' },
  'TRX-007': { status: 409, type: 'TRANSACTION' },
  'RATE-001': { status: 429, type: 'RATE_LIMIT' },
  'CAP-001': { status: 409, type: 'CAPACITY' },
  'CAP-002': { status: 429, type: 'CAPACITY' },
  'CAP-003': { status: 429, type: 'CAPACITY' },
  'TER-001': { status: 503, type: 'TERMINAL' },
  'TER-002': { status: 504, type: 'TERMINAL' },
  'INT-001': { status: 500, type: 'INTERNAL' },
  'INT-002': { status: 503, type: 'INTERNAL' },
  'INT-003': { status: 504, type: 'INTERNAL' },
  'INT-004': { status: 500, type: 'INTERNAL' },
  // The compose profile's load balancer answers these itself, never a replica: listed so that
  // a client built from the OpenAPI document knows every code it may be told.
  'PAR-007': { status: 408, type: 'PARAMETER' },
  'INT-005': { status: 502, type: 'INTERNAL' },
  'INT-006': { status: 504, type: 'INTERNAL' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type ErrorType = (typeof ERROR_CATALOGUE)[ErrorCode]['type'];

/** The single error body of the contract. */
export interface ErrorBody {
  type: ErrorType;
  code: ErrorCode;
  message: string;
  param?: string;
}

/** An error body as an HTTP answer carries it: with the answer's `Request-Id` (docs/contract.md, "Request ids"). */
export type AnsweredErrorBody = ErrorBody & { request_id?: string };

/** A refusal the caller can act on; the HTTP layer turns it into the contract's error body. */
export class ContractError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  /** When the caller should come back, for the refusals that say so (the HTTP layer sends Retry-After). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ContractError';
    this.status = ERROR_CATALOGUE[code].status;
    this.type = ERROR_CATALOGUE[code].type;
  }

  toBody(): ErrorBody;
  toBody(requestId: string | undefined): AnsweredErrorBody;
  toBody(requestId?: string): AnsweredErrorBody {
    const body: AnsweredErrorBody = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) body.param = this.param;
    if (requestId !== undefined) body.request_id = requestId;
    return body;
  }
}

/** 429 RATE-001, telling the caller when to come back (the HTTP layer adds Retry-After). */
export class RateLimitedError extends ContractError {
  constructor(
    override readonly retryAfterSeconds: number,
    what = 'too many requests for this merchant',
  ) {
    super('RATE-001', `${what}; retry after ${retryAfterSeconds} s`);
  }
}

/**
 * A hard cap met (contract §22): 409 CAP-001 for a count of things the caller holds, 429 CAP-002
 * for one client address's account creations in the last hour, 429 CAP-003 for what the whole
 * process holds. The message names the cap and its value; Retry-After is sent where waiting helps.
 */
export class CapReachedError extends ContractError {
  constructor(
    code: 'CAP-001' | 'CAP-002' | 'CAP-003',
    readonly cap: string,
    readonly value: number,
    message: string,
    override readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

/**
 * 409 TRX-007: another operation on the same transaction has no outcome yet. Unlike TRX-006 (never
 * allowed in the transaction's state) it may pass once that one ends, so the caller is told when to
 * ask again (docs/contract.md, "One follow-up at a time per transaction").
 */
export class OperationRunningError extends ContractError {
  override readonly retryAfterSeconds = 1;

  constructor(param?: string) {
    super('TRX-007', 'another operation on this transaction is still running; retry in a second', param);
  }
}

/** 503 INT-002: the service could not store what the request needs, so it kept nothing of it. */
export class StorageUnavailableError extends ContractError {
  /** Long enough for a full disk to be noticed, short enough for a CI job to ride it out. */
  override readonly retryAfterSeconds = 2;

  constructor(override readonly cause: unknown) {
    super('INT-002', 'the service cannot write to its storage right now; retry later');
  }
}

/**
 * 503 INT-002 for an order handed to no terminal: no replica could be found holding its link
 * just after the store was away, when every replica's heartbeat may have lapsed with it. Nothing
 * was taken, as the code says, but "not linked" (TER-001) might be false.
 */
export class NotHandedOverError extends StorageUnavailableError {}

/**
 * 504 INT-003 (contract §19): the terminal took the operation and answered, but the service could
 * not store its outcome. Never INT-002, which tells the caller nothing moved: a retry with the same
 * id answers the outcome once storage works (the terminal sends its events again).
 */
export class OutcomeNotStoredError extends ContractError {
  override readonly retryAfterSeconds = 2;

  constructor(
    clientTransactionId: string,
    override readonly cause: unknown,
    message = `the terminal answered ${clientTransactionId}, but the service could not store its outcome; retry with the same client_transaction_id`,
  ) {
    super('INT-003', message);
  }
}

/** The error to answer when storing what a terminal answered failed: storage failures are INT-003. */
export function afterTerminalAnswered(clientTransactionId: string, error: unknown): unknown {
  return error instanceof StorageUnavailableError && !(error instanceof NotHandedOverError)
    ? new OutcomeNotStoredError(clientTransactionId, error)
    : error;
}

/**
 * Whether a failure to hand an order to a terminal says it took nothing: its refusal, or no link to
 * send on. Anything else may come after the order left, sent on a link or handed to the replica
 * that holds it (a storage failure while waiting for that replica's reply): the outcome is
 * unknown, and what was recorded stays for the same-id retry (contract §19).
 */
export function terminalTookNothing(error: unknown): boolean {
  if (error instanceof NotHandedOverError) return true;
  return error instanceof ContractError && error.code !== 'TER-002' && !error.code.startsWith('INT-');
}

/**
 * 500 INT-004 (contract, "Secrets at rest"): a secret this request needs is sealed under a key the
 * service does not hold. The operator's to fix, not the caller's, and a retry does not help: the
 * message names the key id the operator must add to SECRETS_KEY.
 */
export class SecretKeyMissingError extends ContractError {
  constructor(
    readonly keyId: string,
    override readonly cause: unknown,
  ) {
    super(
      'INT-004',
      `a secret of this account is sealed under key ${keyId}, which this service's SECRETS_KEY does not hold: the operator must add that key; a retry does not help`,
    );
  }
}

/**
 * 504 TER-002 for something the service keeps and a caller can follow: the answer names where
 * (the HTTP layer sends it as `Location`), so the caller reads the outcome there once known.
 */
export class FollowableOutcomeUnknownError extends ContractError {
  constructor(
    message: string,
    readonly location: string,
  ) {
    super('TER-002', message);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}
