import { Type, type Static } from '@sinclair/typebox';
import {
  AmountCentavosSchema,
  OperationTypeSchema,
  ReadingTypeSchema,
  closed,
} from './schema/contract-shapes';

/** What the card looked like on the transaction a follow-up operation acts on. */
export const OriginalCardSchema = Type.Object(
  {
    readingType: ReadingTypeSchema,
    cardType: Type.String(),
    franchise: Type.String(),
    pan: Type.String(),
    bin: Type.String(),
  },
  closed,
);
export type OriginalCard = Static<typeof OriginalCardSchema>;

/** An operation the service hands to a terminal, after validating it. */
export const OperationOrderSchema = Type.Object(
  {
    type: OperationTypeSchema,
    mode: Type.Union([Type.Literal('sync'), Type.Literal('async')]),
    /** The route the request came by: Local (the bound terminal) or Cloud (the serial in the path). */
    form: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
    merchantId: Type.String(),
    clientTransactionId: Type.String(),
    amount: AmountCentavosSchema,
    tip: Type.Optional(Type.Number()),
    metadata: Type.Record(Type.String(), Type.String()),
    /** Empty string when the caller gave none. */
    eventsWebhookUrl: Type.String(),
    transactionReference: Type.Optional(Type.String()),
    original: Type.Optional(OriginalCardSchema),
    targetClientTransactionId: Type.Optional(Type.String()),
    /** The merchant's sandbox clock offset, so the terminal dates events on the merchant's clock. */
    clockOffsetMs: Type.Number(),
    /** W3C trace context of the request that ordered it; absent from a service that predates traces. */
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
  },
  closed,
);
export type OperationOrder = Static<typeof OperationOrderSchema>;
