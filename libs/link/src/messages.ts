import { Type, type Static } from '@sinclair/typebox';
import { CARDHOLDER_MODES, TERMINAL_PACES, type ErrorBody } from '@tps/domain';
import { OperationOrderSchema } from './operation-order';
import { PrintJobReportSchema, PrintOrderSchema } from './print-order';
import { ShareNoticeSchema } from './share';
import { TransactionOutcomeSchema } from './transaction-outcome';
import {
  ReadingTypeSchema,
  SearchFiltersSchema,
  TransactionEventSchema,
  closed,
  oneOf,
} from './schema/contract-shapes';

/**
 * The messages of the links between the apps (docs/contract.md, "Links between the apps"). Each is
 * one schema: its type comes from it, and both ends check what they receive against it.
 */

/** Path of a terminal's own uplink to the service (Cloud-form operations down, events up). */
export const UPLINK_PATH = '/link/terminal';
/** Path of the simulator's control link: the terminals' local network and the sandbox controls. */
export const CONTROL_PATH = '/link/simulator';
export const LINK_SERIAL_HEADER = 'x-terminal-serial';
export const LINK_TOKEN_HEADER = 'x-link-token';

/** An event as it travels up the link: the envelope plus, on a final event, the outcome. */
export const LinkEventSchema = Type.Object(
  {
    event: TransactionEventSchema,
    outcome: Type.Optional(TransactionOutcomeSchema),
    /**
     * On TERMINAL_ACKNOWLEDGED: the operation as the terminal took it, so that a service that has no
     * record of the transaction (its request was lost with a crash) can record it from the events.
     */
    order: Type.Optional(OperationOrderSchema),
    /** W3C trace context of the terminal's run of the operation: the webhooks it calls for continue it. */
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
  },
  closed,
);
export type LinkEvent = Static<typeof LinkEventSchema>;

/**
 * What a terminal answers to an operation: the transaction's events so far, in order, already in
 * its own store. The first is the acknowledgement; for sync the last is final and carries the
 * outcome. The service stores them before it answers, so it never tells what it has not stored,
 * and then tells the terminal (a `stored` notice). For a short while the terminal holds that
 * transaction's events back from its uplink, so that a quick lifecycle travels once, in the reply;
 * what goes up meanwhile anyway (a slow lifecycle, a lost notice) is a duplicate to the service.
 */
export const OperationReplySchema = Type.Object({ events: Type.Array(LinkEventSchema) }, closed);
export type OperationReply = Static<typeof OperationReplySchema>;

/** Notices the service sends down a terminal's uplink. */
export const UplinkNoticeSchema = Type.Object(
  {
    type: Type.Literal('stored'),
    merchantId: Type.String(),
    clientTransactionId: Type.String(),
    /** The events of an operation's reply that the service has committed. */
    eventIds: Type.Array(Type.String()),
  },
  closed,
);
export type UplinkNotice = Static<typeof UplinkNoticeSchema>;

/** A terminal as the service's fleet describes it to the simulator. */
export const TerminalProfileSchema = Type.Object(
  {
    serialNumber: Type.String(),
    merchantId: Type.String(),
    model: Type.String(),
    wifiMac: Type.String(),
    room: Type.String(),
    pace: oneOf(TERMINAL_PACES),
    printer: Type.String(),
    offline: Type.Boolean(),
    /** Absent from a service that predates the setting: `auto`. */
    cardholder: Type.Optional(oneOf(CARDHOLDER_MODES)),
  },
  closed,
);
export type TerminalProfile = Static<typeof TerminalProfileSchema>;

/** The cardholder at the terminal's screen (sandbox card control). */
export const CardActionSchema = Type.Union([
  Type.Object({ action: Type.Literal('present'), readingType: ReadingTypeSchema }, closed),
  Type.Object({ action: Type.Literal('cancel') }, closed),
]);
export type CardAction = Static<typeof CardActionSchema>;

/** Requests a terminal answers, whichever link they come by. */
export const TerminalRequestSchema = Type.Union([
  Type.Object({ type: Type.Literal('operation'), order: OperationOrderSchema }, closed),
  /** Local transaction search (contract §7): the terminal's own store, one merchant's records; answers a SearchAnswer. */
  Type.Object(
    { type: Type.Literal('search'), merchantId: Type.String(), filters: SearchFiltersSchema },
    closed,
  ),
  /** Sync abort: cancels the named transaction, or whatever runs, if it is not past APPROVAL_REQUESTED. */
  Type.Object(
    { type: Type.Literal('abort'), merchantId: Type.String(), target: Type.Optional(Type.String()) },
    closed,
  ),
  Type.Object({ type: Type.Literal('card'), card: CardActionSchema }, closed),
  /** The events the terminal stored for one transaction, in order (none when it never took it). */
  Type.Object(
    { type: Type.Literal('events'), merchantId: Type.String(), clientTransactionId: Type.String() },
    closed,
  ),
  Type.Object({ type: Type.Literal('print'), job: PrintOrderSchema }, closed),
]);
export type TerminalRequest = Static<typeof TerminalRequestSchema>;

/** The answer of a sync abort that canceled its target (contract §3). */
export const AbortAnswerSchema = Type.Object(
  { client_transaction_id: Type.String(), status: Type.Literal('TERMINAL_CANCELED') },
  closed,
);
export type AbortAnswer = Static<typeof AbortAnswerSchema>;

/** What a terminal answers to a sync abort: the answer, and the canceled transaction's events. */
export const AbortReplySchema = Type.Object(
  { answer: AbortAnswerSchema, events: Type.Array(LinkEventSchema) },
  closed,
);
export type AbortReply = Static<typeof AbortReplySchema>;

/** What a terminal answers to a card action: the transaction that took it. */
export const CardReplySchema = Type.Object(
  {
    client_transaction_id: Type.String(),
    action: Type.Union([Type.Literal('present'), Type.Literal('cancel')]),
  },
  closed,
);
export type CardReply = Static<typeof CardReplySchema>;

/** Requests on the control link name the terminal they are for. */
export const ControlRequestSchema = Type.Union([
  Type.Object(
    { type: Type.Literal('terminal'), serial: Type.String(), request: TerminalRequestSchema },
    closed,
  ),
  Type.Object({ type: Type.Literal('host'), terminal: TerminalProfileSchema }, closed),
  /**
   * Sandbox reset: the terminals drop what runs, their store (transactions, queued events, print
   * jobs) is erased, and they start again idle with these settings. Answers a FleetChange.
   */
  Type.Object({ type: Type.Literal('reset'), terminals: Type.Array(TerminalProfileSchema) }, closed),
  /** Sandbox account removal: the terminals stop and their store is erased. Answers a FleetChange. */
  Type.Object({ type: Type.Literal('remove'), serials: Type.Array(Type.String()) }, closed),
]);
export type ControlRequest = Static<typeof ControlRequestSchema>;

/** What the simulator answers to a host request: the serial it hosts. */
export const HostReplySchema = Type.Object({ hosted: Type.String() }, closed);
export type HostReply = Static<typeof HostReplySchema>;

/** What the simulator answers to a reset or a removal: the serials it acted on. */
export const FleetChangeSchema = Type.Object({ serials: Type.Array(Type.String()) }, closed);
export type FleetChange = Static<typeof FleetChangeSchema>;

/** Notices the service sends on the control link: first the share it holds, then its fleet. */
export const ControlNoticeSchema = Type.Union([
  ShareNoticeSchema,
  Type.Object({ type: Type.Literal('fleet'), terminals: Type.Array(TerminalProfileSchema) }, closed),
]);
export type ControlNotice = Static<typeof ControlNoticeSchema>;

/**
 * Requests a terminal sends up its uplink. Events go as a run of the oldest unacknowledged ones,
 * in order: one round trip and one write for what a busy terminal produced meanwhile.
 */
export const UplinkRequestSchema = Type.Union([
  Type.Object({ type: Type.Literal('events'), links: Type.Array(LinkEventSchema) }, closed),
  Type.Object({ type: Type.Literal('print'), report: PrintJobReportSchema }, closed),
]);
export type UplinkRequest = Static<typeof UplinkRequestSchema>;

/** How many events of the run, from its start, the service has stored (or knowingly dropped). */
export const EventsReceiptSchema = Type.Object({ stored: Type.Integer({ minimum: 0 }) }, closed);
export type EventsReceipt = Static<typeof EventsReceiptSchema>;

/** What the service answers to a print report: the job it took it for. */
export const PrintReportReceiptSchema = Type.Object({ acknowledged: Type.String() }, closed);
export type PrintReportReceipt = Static<typeof PrintReportReceiptSchema>;

export type { ErrorBody };
