import type { ErrorCode } from '@tps/domain';

/**
 * What each code of the catalogue tells the caller (contract §4), for the document's error
 * responses. A Record over every code, so a code added to the catalogue cannot go undocumented.
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  'PAR-001':
    'malformed JSON (nested deeper than 64, a duplicate key), an unknown field (`param` names it) or a malformed request',
  'PAR-002':
    'a missing, null or invalid field, a lone surrogate, U+0000 (in a field or the request target) or a number beyond a double (`param` names it)',
  'PAR-003': 'the total is zero or above the maximum',
  'PAR-004': 'the webhook URL is invalid or not allowed by the profile',
  'PAR-005': 'the body is larger than 1 MiB',
  'PAR-006': 'a body that is not `application/json` (415)',
  'AUTH-001': 'missing or bad Authorization, unknown merchant or wrong signature',
  'AUTH-002': '`timestamp` missing, not a number, or outside ±300 s of the real clock',
  'AUTH-003':
    "a hosted sandbox's account creation without its token (`Authorization: Bearer <token>`), or with a wrong one",
  'AUTH-004':
    "a hosted sandbox's published demo credentials, which may only read: anything else (a charge, a reset, a secret rotation, terminal control, `listen`) needs an account of one's own (`POST /sandbox/accounts`)",
  'NF-000': 'no such route',
  'NF-001': 'no such transaction for this merchant',
  'NF-002': "no such terminal for this merchant (also another merchant's), or none bound for the Local form",
  'NF-003': 'no such print job on this terminal',
  'NF-004': 'no such delivery',
  'NF-005': 'no such conformance run for this account',
  'TER-003': 'the terminal is busy with another operation',
  'TER-004': 'the serial is already taken',
  'TER-005': "the account has as many terminals as the hosted sandbox's quota allows",
  'TER-101': 'the terminal rejected the operation: no card presented in time',
  'TER-102': 'the terminal rejected the operation: maximum card-read retries',
  'TER-103': 'the terminal rejected the operation on validation',
  'TER-104': 'the operation was canceled on the terminal',
  'TRX-001': 'client_transaction_id already used with another request',
  'TRX-002': 'nothing to abort, or the operation is past APPROVAL_REQUESTED',
  'TRX-003': 'void after the cut-off (22:00 Mexico City on the day of approval): refund instead',
  'TRX-004': 'the pre-authorization has expired',
  'TRX-005': 'the amount is over what is authorized or left to refund',
  'TRX-006': "the operation is not allowed in the transaction's state",
  'TRX-007':
    'another operation on this transaction has no outcome yet: retry after Retry-After (1 s) with the same client_transaction_id',
  'RATE-001': 'too many requests for this merchant; see Retry-After',
  'CAP-001':
    "a hard cap on a count the caller holds (accounts alive from one client address, an account's pending webhook deliveries); the message names the cap and its value: delete an account (`DELETE /sandbox/accounts/me`), or let the receivers take the deliveries, first",
  'CAP-002':
    'a hard cap on the sandbox accounts one client address makes per hour; the message names it and its value; see Retry-After',
  'CAP-003':
    'a hard cap of the whole service (terminals, derived from its descriptor limit) is met; the message names it and its value; see Retry-After',
  'TER-001': 'the terminal is offline or unreachable: nothing was recorded, retry with the same id',
  'TER-002':
    'outcome unknown (the link was lost or the terminal did not answer in time): what the terminal may have taken stays recorded; retry a transaction with the same id, follow a print job at its `Location`',
  'INT-001': 'internal error, with no detail',
  'INT-002':
    'the service cannot write to its storage right now: nothing of the request was kept; retry after Retry-After with the same id',
  'INT-003':
    'the terminal took the operation and answered, but the service could not store its outcome: retry after Retry-After with the same id to read it (never a new id)',
  'INT-004':
    "a secret of this account is sealed under a key the service's SECRETS_KEY does not hold (the message names its id): the operator must add that key; a retry does not help",
  'PAR-007':
    "the request did not arrive whole in time (the compose profile's load balancer: 10 s; the service: its headers or request timeout): nothing was done, so it may be sent again as it is",
  'INT-005':
    "the load balancer's own (the compose profile's): the replica answering went away before its answer was complete; outcome unknown, retry with the same id",
  'INT-006':
    "the load balancer's own (the compose profile's): the replica did not answer within the balancer's timeout; outcome unknown, retry with the same id",
};
