import { Type, type Static } from '@sinclair/typebox';
import { PrintCommandSchema, PrintJobStatusSchema, closed } from './schema/contract-shapes';

/** A print job the service hands to a terminal's printer, after validating it. */
export const PrintOrderSchema = Type.Object(
  {
    printJobId: Type.String(),
    merchantId: Type.String(),
    commands: Type.Array(PrintCommandSchema),
    /** Empty string when the caller gave none. The service, not the terminal, calls it back. */
    webhookUrl: Type.String(),
    /** Empty string when the caller gave none. */
    externalReference: Type.String(),
    /** The merchant's sandbox clock offset, so the terminal dates the job on the merchant's clock. */
    clockOffsetMs: Type.Number(),
    /** W3C trace context of the request that ordered it; absent from a service that predates traces. */
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
  },
  closed,
);
export type PrintOrder = Static<typeof PrintOrderSchema>;

/**
 * A print job as the terminal reports it up its uplink after each change. A report carries the
 * whole state, so a later one stands for any the link could not carry.
 */
export const PrintJobReportSchema = Type.Object(
  {
    printJobId: Type.String(),
    status: PrintJobStatusSchema,
    updatedAt: Type.String(),
    errorCode: Type.Optional(Type.String()),
    errorMessage: Type.Optional(Type.String()),
    printedText: Type.Optional(Type.String()),
    /** The job's order's trace context: its callback continues that trace. */
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
  },
  closed,
);
export type PrintJobReport = Static<typeof PrintJobReportSchema>;
