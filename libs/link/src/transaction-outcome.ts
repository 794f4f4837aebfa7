import type { ErrorBody } from '@tps/domain';
import type { AuthorizationResponse } from '@tps/contracts';

/**
 * How a transaction ended, as the terminal tells the service. It travels beside the final event,
 * never inside it: the envelope carries no card data and no transaction reference.
 */
export type TransactionOutcome =
  { kind: 'acquirer'; response: AuthorizationResponse } | { kind: 'terminal'; error: ErrorBody };
