import type { CardholderMode, ErrorBody, ReadingType, TerminalPace } from '@tps/domain';
import type { SearchFilters, TransactionEvent } from '@tps/contracts';
import type { OperationOrder } from './operation-order';
import type { PrintJobReport, PrintOrder } from './print-order';
import type { ShareNotice } from './share';
import type { TransactionOutcome } from './transaction-outcome';

/** Path of a terminal's own uplink to the service (Cloud-form operations down, events up). */
export const UPLINK_PATH = '/link/terminal';
/** Path of the simulator's control link: the terminals' local network and the sandbox controls. */
export const CONTROL_PATH = '/link/simulator';
export const LINK_SERIAL_HEADER = 'x-terminal-serial';
export const LINK_TOKEN_HEADER = 'x-link-token';

/** An event as it travels up the link: the envelope plus, on a final event, the outcome. */
export interface LinkEvent {
  event: TransactionEvent;
  outcome?: TransactionOutcome;
  /**
   * On TERMINAL_ACKNOWLEDGED: the operation as the terminal took it, so that a service that has no
   * record of the transaction (its request was lost with a crash) can record it from the events.
   */
  order?: OperationOrder;
}

/**
 * What a terminal answers to an operation: the transaction's events so far, in order, already in
 * its own store. The first is the acknowledgement; for sync the last is final and carries the
 * outcome. The service stores them before it answers, so it never tells what it has not stored,
 * and then tells the terminal (a `stored` notice). For a short while the terminal holds that
 * transaction's events back from its uplink, so that a quick lifecycle travels once, in the reply;
 * what goes up meanwhile anyway (a slow lifecycle, a lost notice) is a duplicate to the service.
 */
export interface OperationReply {
  events: LinkEvent[];
}

/** Notices the service sends down a terminal's uplink. */
export type UplinkNotice = {
  type: 'stored';
  merchantId: string;
  clientTransactionId: string;
  /** The events of an operation's reply that the service has committed. */
  eventIds: string[];
};

/** A terminal as the service's fleet describes it to the simulator. */
export interface TerminalProfile {
  serialNumber: string;
  merchantId: string;
  model: string;
  wifiMac: string;
  room: string;
  pace: TerminalPace;
  printer: string;
  offline: boolean;
  /** Absent from a service that predates the setting: `auto`. */
  cardholder?: CardholderMode;
}

/** The cardholder at the terminal's screen (sandbox card control). */
export type CardAction = { action: 'present'; readingType: ReadingType } | { action: 'cancel' };

/** Requests a terminal answers, whichever link they come by. */
export type TerminalRequest =
  | { type: 'operation'; order: OperationOrder }
  /** Local transaction search (contract §7): the terminal's own store, one merchant's records; answers a SearchAnswer. */
  | { type: 'search'; merchantId: string; filters: SearchFilters }
  /** Sync abort: cancels the named transaction, or whatever runs, if it is not past APPROVAL_REQUESTED. */
  | { type: 'abort'; merchantId: string; target?: string }
  | { type: 'card'; card: CardAction }
  /** The events the terminal stored for one transaction, in order (none when it never took it). */
  | { type: 'events'; merchantId: string; clientTransactionId: string }
  | { type: 'print'; job: PrintOrder };

/** The answer of a sync abort that canceled its target (contract §3). */
export interface AbortAnswer {
  client_transaction_id: string;
  status: 'TERMINAL_CANCELED';
}

/** What a terminal answers to a sync abort: the answer, and the canceled transaction's events. */
export interface AbortReply {
  answer: AbortAnswer;
  events: LinkEvent[];
}

/** What a terminal answers to a card action: the transaction that took it. */
export interface CardReply {
  client_transaction_id: string;
  action: CardAction['action'];
}

/** Requests on the control link name the terminal they are for. */
export type ControlRequest =
  | { type: 'terminal'; serial: string; request: TerminalRequest }
  | { type: 'host'; terminal: TerminalProfile }
  /**
   * Sandbox reset: the terminals drop what runs, their store (transactions, queued events, print
   * jobs) is erased, and they start again idle with these settings. Answers a FleetChange.
   */
  | { type: 'reset'; terminals: TerminalProfile[] }
  /** Sandbox account removal: the terminals stop and their store is erased. Answers a FleetChange. */
  | { type: 'remove'; serials: string[] };

/** What the simulator answers to a reset or a removal: the serials it acted on. */
export interface FleetChange {
  serials: string[];
}

/** Notices the service sends on the control link: first the share it holds, then its fleet. */
export type ControlNotice = ShareNotice | { type: 'fleet'; terminals: TerminalProfile[] };

/**
 * Requests a terminal sends up its uplink. Events go as a run of the oldest unacknowledged ones,
 * in order: one round trip and one write for what a busy terminal produced meanwhile.
 */
export type UplinkRequest =
  { type: 'events'; links: LinkEvent[] } | { type: 'print'; report: PrintJobReport };

/** How many events of the run, from its start, the service has stored (or knowingly dropped). */
export interface EventsReceipt {
  stored: number;
}

export type { ErrorBody };
