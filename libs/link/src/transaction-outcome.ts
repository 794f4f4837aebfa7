import { Type, type Static } from '@sinclair/typebox';
import { AuthorizationResponseSchema, ErrorBodySchema, closed } from './schema/contract-shapes';

/**
 * How a transaction ended, as the terminal tells the service. It travels beside the final event,
 * never inside it: the envelope carries no card data and no transaction reference.
 */
export const TransactionOutcomeSchema = Type.Union([
  Type.Object({ kind: Type.Literal('acquirer'), response: AuthorizationResponseSchema }, closed),
  Type.Object({ kind: Type.Literal('terminal'), error: ErrorBodySchema }, closed),
]);
export type TransactionOutcome = Static<typeof TransactionOutcomeSchema>;
