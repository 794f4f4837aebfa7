import { Type, type TSchema } from '@sinclair/typebox';
import {
  AbortReplySchema,
  CardReplySchema,
  ControlNoticeSchema,
  ControlRequestSchema,
  EventsReceiptSchema,
  FleetChangeSchema,
  HostReplySchema,
  LinkEventSchema,
  OperationReplySchema,
  PrintReportReceiptSchema,
  TerminalRequestSchema,
  UplinkNoticeSchema,
  UplinkRequestSchema,
  type ControlRequest,
  type TerminalRequest,
  type UplinkRequest,
} from './messages';
import { PrintJobReportSchema } from './print-order';
import { SearchAnswerSchema } from './schema/contract-shapes';
import { MessageCheck } from './schema/message-check';

/** What one end of a link takes from the other: the requests it answers and the notices it reads. */
export interface LinkSide<R extends TSchema, N extends TSchema> {
  requests: MessageCheck<R>;
  notices: MessageCheck<N>;
}

/** A message kind this end never receives: whatever comes is refused. */
const nothing = Type.Never();

/** The service's end of a terminal's uplink: the terminal's events and print reports. */
export const SERVICE_UPLINK_SIDE = {
  requests: new MessageCheck('uplink request', UplinkRequestSchema),
  notices: new MessageCheck('uplink notice', nothing),
};

/** The service's end of the control link: the simulator sends it nothing but replies. */
export const SERVICE_CONTROL_SIDE = {
  requests: new MessageCheck('control request', nothing),
  notices: new MessageCheck('control notice', nothing),
};

/** A terminal's end of its uplink: the service's Cloud-form requests and `stored` notices. */
export const TERMINAL_UPLINK_SIDE = {
  requests: new MessageCheck('terminal request', TerminalRequestSchema),
  notices: new MessageCheck('uplink notice', UplinkNoticeSchema),
};

/** The simulator's end of the control link: Local-form requests, sandbox controls, the fleet. */
export const SIMULATOR_CONTROL_SIDE = {
  requests: new MessageCheck('control request', ControlRequestSchema),
  notices: new MessageCheck('control notice', ControlNoticeSchema),
};

const TERMINAL_REPLIES: { [K in TerminalRequest['type']]: MessageCheck<TSchema> } = {
  operation: new MessageCheck('operation reply', OperationReplySchema),
  search: new MessageCheck('search reply', SearchAnswerSchema),
  abort: new MessageCheck('abort reply', AbortReplySchema),
  card: new MessageCheck('card reply', CardReplySchema),
  events: new MessageCheck('events reply', Type.Array(LinkEventSchema)),
  print: new MessageCheck('print reply', PrintJobReportSchema),
};

export const HOST_REPLY = new MessageCheck('host reply', HostReplySchema);
export const FLEET_CHANGE = new MessageCheck('fleet change reply', FleetChangeSchema);

/** The check of what a terminal answers to `request`. */
export function terminalReply(request: TerminalRequest): MessageCheck<TSchema> {
  return TERMINAL_REPLIES[request.type];
}

/** The check of what the simulator answers to a control request. */
export function controlReply(request: ControlRequest): MessageCheck<TSchema> {
  switch (request.type) {
    case 'terminal':
      return terminalReply(request.request);
    case 'host':
      return HOST_REPLY;
    case 'reset':
    case 'remove':
      return FLEET_CHANGE;
  }
}

export const EVENTS_RECEIPT = new MessageCheck('events receipt', EventsReceiptSchema);
export const PRINT_REPORT_RECEIPT = new MessageCheck('print report receipt', PrintReportReceiptSchema);

/** The check of what the service answers to an uplink request. */
export function uplinkReply(request: UplinkRequest): MessageCheck<TSchema> {
  return request.type === 'events' ? EVENTS_RECEIPT : PRINT_REPORT_RECEIPT;
}
