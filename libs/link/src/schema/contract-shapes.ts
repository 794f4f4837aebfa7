import { Type, type Static, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';
import {
  BUSINESS_STATES,
  ERROR_CATALOGUE,
  LIFECYCLE_STATUSES,
  OPERATION_TYPES,
  PRINT_JOB_STATUSES,
  READING_TYPES,
  type AmountCentavos,
  type ErrorBody,
  type ErrorCode,
  type ErrorType,
} from '@tps/domain';
import { PRINT_ALIGNMENTS, type AuthorizationResponse, type PrintCommand } from '@tps/contracts';
import type { SearchAnswer, SearchFilters, TransactionEvent } from '@tps/contracts';

/**
 * Schemas of the contract's own shapes that travel inside link messages. Their types stay defined
 * in @tps/contracts and @tps/domain; `Exactly` proves at compile time that each schema describes
 * its type, so the two cannot drift apart.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Every optional field made required, so that a field only one side has is not lost in the match. */
type Filled<T> = T extends readonly (infer U)[]
  ? Filled<U>[]
  : T extends object
    ? { [K in keyof T]-?: Filled<T[K]> }
    : T;
/** The schema itself when it describes exactly `T`; `never` (a compile error where used) if not. */
type Exactly<S extends TSchema, T> =
  Same<Static<S>, T> extends true ? (Same<Filled<Static<S>>, Filled<T>> extends true ? S : never) : never;

/**
 * Objects of the link are closed: what an end takes in has only the fields it knows. A field it
 * does not know (a newer app's addition) is dropped on receipt, not refused (MessageCheck).
 */
export const closed = { additionalProperties: false } as const;

export function oneOf<T extends string>(values: readonly T[]): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)));
}

export const ReadingTypeSchema = oneOf(READING_TYPES);
export const OperationTypeSchema = oneOf(OPERATION_TYPES);
export const LifecycleStatusSchema = oneOf(LIFECYCLE_STATUSES);
export const PrintJobStatusSchema = oneOf(PRINT_JOB_STATUSES);

const errorCodes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const errorTypes = [...new Set(errorCodes.map((code) => ERROR_CATALOGUE[code].type))] as ErrorType[];

const errorBody = Type.Object(
  {
    type: oneOf(errorTypes),
    code: oneOf(errorCodes),
    message: Type.String(),
    param: Type.Optional(Type.String()),
  },
  closed,
);
export const ErrorBodySchema: Exactly<typeof errorBody, ErrorBody> = errorBody;

const extraTaxes = Type.Object(
  { airportTax: Type.Number(), iac: Type.Number(), ice: Type.Number(), travelAgency: Type.Number() },
  closed,
);
/** Centavos (AmountCentavos) and pesos (AmountPesos) have the same fields. */
const amountFields = {
  iva: Type.Number(),
  subtotalIva: Type.Number(),
  subtotalIva0: Type.Number(),
  extraTaxes,
};
const amountCentavos = Type.Object(amountFields, closed);
export const AmountCentavosSchema: Exactly<typeof amountCentavos, AmountCentavos> = amountCentavos;

const transactionEvent = Type.Object(
  {
    event_id: Type.String(),
    previous_status: Type.Union([LifecycleStatusSchema, Type.Literal('')]),
    occurred_at: Type.String(),
    status: LifecycleStatusSchema,
    merchant_id: Type.String(),
    client_transaction_id: Type.String(),
    interaction_attempt: Type.Optional(Type.Number()),
    reading_type: Type.Optional(ReadingTypeSchema),
    failure_reason: Type.Optional(
      Type.Object({ type: Type.String(), code: Type.String(), message: Type.String() }, closed),
    ),
    terminal: Type.Object(
      { serialNumber: Type.String(), model: Type.String(), wifiMac: Type.String(), room: Type.String() },
      closed,
    ),
    operation: Type.Object(
      {
        type: OperationTypeSchema,
        amount: Type.Object({ ...amountFields, tip: Type.Optional(Type.Number()) }, closed),
        clientTransactionId: Type.String(),
        eventsWebHook: Type.String(),
        metadata: Type.Record(Type.String(), Type.String()),
        transactionReference: Type.Optional(Type.String()),
      },
      closed,
    ),
  },
  closed,
);
export const TransactionEventSchema: Exactly<typeof transactionEvent, TransactionEvent> = transactionEvent;

const authorizationResponse = Type.Object(
  {
    approved: Type.Boolean(),
    responseCode: Type.String(),
    authCode: Type.String(),
    issuerAuthenticationData: Type.String(),
    issuerScript1: Type.String(),
    issuerScript2: Type.String(),
    message: Type.String(),
    rawResponse: Type.Object(
      {
        authorized_amount: Type.Number(),
        card_type: Type.String(),
        cvm_type: Type.String(),
        franchise: Type.String(),
        service_response: Type.Object({ code: Type.String(), message: Type.String() }, closed),
        transaction_reference: Type.String(),
        transaction_status: Type.String(),
        transaction_type: Type.String(),
        ticket_number: Type.String(),
        F11: Type.String(),
        message_fields: Type.Object({ F38: Type.String(), F39: Type.String(), F55: Type.String() }, closed),
      },
      closed,
    ),
    cardData: Type.Object(
      {
        pan: Type.String(),
        cardHolderName: Type.String(),
        cardType: Type.String(),
        entryMode: Type.String(),
        showReciptSignature: Type.Boolean(),
        cvm: Type.String(),
        aid: Type.String(),
        bin: Type.String(),
        isOnlinePinMandatory: Type.Boolean(),
      },
      closed,
    ),
    timestamp: Type.Number(),
  },
  closed,
);
export const AuthorizationResponseSchema: Exactly<typeof authorizationResponse, AuthorizationResponse> =
  authorizationResponse;

const searchFilters = Type.Object(
  {
    clientTransactionId: Type.Optional(Type.String()),
    transactionReference: Type.Optional(Type.String()),
    status: Type.Optional(LifecycleStatusSchema),
    operationType: Type.Optional(OperationTypeSchema),
    fromMs: Type.Optional(Type.Number()),
    toMs: Type.Optional(Type.Number()),
    terminalSerial: Type.Optional(Type.String()),
    limit: Type.Number(),
    cursor: Type.Optional(Type.String()),
  },
  closed,
);
export const SearchFiltersSchema: Exactly<typeof searchFilters, SearchFilters> = searchFilters;

const searchItem = Type.Object(
  {
    client_transaction_id: Type.String(),
    transaction_reference: Type.Union([Type.String(), Type.Null()]),
    operation_type: OperationTypeSchema,
    status: Type.Union([LifecycleStatusSchema, Type.Null()]),
    business_state: Type.Union([oneOf(BUSINESS_STATES), Type.Null()]),
    terminal_serial: Type.String(),
    amount: Type.Object(
      {
        iva: Type.Number(),
        subtotal_iva: Type.Number(),
        subtotal_iva0: Type.Number(),
        extra_taxes: Type.Object(
          {
            airport_tax: Type.Number(),
            iac: Type.Number(),
            ice: Type.Number(),
            travel_agency: Type.Number(),
          },
          closed,
        ),
        tip: Type.Number(),
        total: Type.Number(),
      },
      closed,
    ),
    card: Type.Union([
      Type.Object(
        {
          pan: Type.String(),
          franchise: Type.String(),
          card_type: Type.String(),
          reading_type: Type.Union([ReadingTypeSchema, Type.Null()]),
        },
        closed,
      ),
      Type.Null(),
    ]),
    created_at: Type.String(),
    events: Type.Array(
      Type.Object(
        {
          event_id: Type.String(),
          status: LifecycleStatusSchema,
          previous_status: Type.String(),
          occurred_at: Type.String(),
        },
        closed,
      ),
    ),
  },
  closed,
);
const searchAnswer = Type.Object(
  { items: Type.Array(searchItem), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  closed,
);
export const SearchAnswerSchema: Exactly<typeof searchAnswer, SearchAnswer> = searchAnswer;

const printCommand = Type.Union([
  Type.Object(
    {
      type: Type.Literal('text'),
      value: Type.String(),
      align: Type.Optional(oneOf(PRINT_ALIGNMENTS)),
      bold: Type.Optional(Type.Boolean()),
    },
    closed,
  ),
  Type.Object(
    { type: Type.Union([Type.Literal('qr'), Type.Literal('barcode')]), value: Type.String() },
    closed,
  ),
  Type.Object({ type: Type.Literal('feed'), lines: Type.Number() }, closed),
  Type.Object({ type: Type.Literal('cut') }, closed),
]);
export const PrintCommandSchema: Exactly<typeof printCommand, PrintCommand> = printCommand;
