import type { UplinkNotice } from '@tps/link';
import type { LinkKind } from './routing-ports';

/**
 * What the links of this replica tell the other replicas, and how a request reaches a link held
 * by another one (contract, scale-out). On one process (SQLite) it does nothing and costs nothing.
 */
export interface LinkRouting {
  uplinkOpened(serial: string): void;
  uplinkClosed(serial: string): void;
  controlOpened(share: string, instance: string, epoch: number): void;
  controlClosed(share: string): void;
  /**
   * The reply of the live replica that holds the link (`key`: the serial of an uplink, the share of
   * a control link); undefined when no other replica holds it.
   */
  route(
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<{ reply: unknown } | undefined>;
  /**
   * Passes a notice on to the terminal's uplink on whichever replica holds it (a routed operation's
   * events were stored here); at most once: a lost notice costs the events coming up again.
   */
  noticeElsewhere(serial: string, notice: UplinkNotice): void;
  /** The terminals whose uplink some live replica holds, and whether a share's control link is held; undefined: only this process's links count. */
  linkedAnywhere(share: string): Promise<{ uplinks: Set<string>; control: boolean } | undefined>;
  /**
   * The simulator instance (and the epoch of its grant) whose control link for the share a live
   * replica holds, as stored; undefined when none does, or on one process.
   */
  shareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined>;
  /**
   * Of these terminals, those whose uplink a live replica holds, each with when it linked (as
   * stored: a new link has a new value); undefined on one process.
   */
  uplinksAnywhere(serials: string[]): Promise<Map<string, string> | undefined>;
}

export const LINK_ROUTING = Symbol('LinkRouting');

/** One process: every link is this process's own. */
export const LOCAL_ONLY: LinkRouting = {
  uplinkOpened: () => undefined,
  uplinkClosed: () => undefined,
  controlOpened: () => undefined,
  controlClosed: () => undefined,
  route: () => Promise.resolve(undefined),
  noticeElsewhere: () => undefined,
  linkedAnywhere: () => Promise.resolve(undefined),
  shareHolder: () => Promise.resolve(undefined),
  uplinksAnywhere: () => Promise.resolve(undefined),
};
