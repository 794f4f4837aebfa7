import { Type, type Static } from '@sinclair/typebox';
import { closed } from './schema/contract-shapes';

/**
 * One simulator per fleet share (docs/contract.md, "Links between the apps"): each simulator
 * process links for a share of the fleet, as one instance (random per process start). The service
 * lets one instance hold a share at a time; the epoch grows each time another instance takes it.
 */

/** The share every terminal belongs to until the fleet is spread over several. */
export const DEFAULT_SHARE = 'fleet';

export const LINK_SHARE_HEADER = 'x-link-share';
export const LINK_INSTANCE_HEADER = 'x-link-instance';
/** On an uplink: the epoch of the share its simulator holds, as the control link told it. */
export const LINK_EPOCH_HEADER = 'x-link-epoch';

export const SHARE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9-]{1,36}$/;

/** Close code of a control link refused because another instance holds its share. */
export const SHARE_HELD_CLOSE_CODE = 4009;
/** Close code of an uplink whose instance or epoch no longer holds its share. */
export const NOT_HOLDER_CLOSE_CODE = 4010;
/** Close code of a control link for a share that is not one of those the fleet is split over. */
export const UNKNOWN_SHARE_CLOSE_CODE = 4011;
/**
 * Close code of an idle uplink the service asks to link again: its requests mostly reach another
 * replica, and a balancer that follows the serial sends the new link there. Any simulator links
 * again after a close, so a simulator that predates the code does the same.
 */
export const RELINK_CLOSE_CODE = 4012;
/** Close code of a link whose replica is stopping: the terminal links again, to another one. */
export const GOING_AWAY_CLOSE_CODE = 1001;

/** A WebSocket close reason may hold 123 bytes (RFC 6455 §5.5); ours are ASCII. */
const CLOSE_REASON_MAX = 123;

export function closeReason(text: string): string {
  return text.length <= CLOSE_REASON_MAX ? text : `${text.slice(0, CLOSE_REASON_MAX - 3)}...`;
}

/** What the service tells a simulator first on a control link it accepted. */
export const ShareNoticeSchema = Type.Object(
  { type: Type.Literal('share'), share: Type.String(), instance: Type.String(), epoch: Type.Number() },
  closed,
);
export type ShareNotice = Static<typeof ShareNoticeSchema>;
