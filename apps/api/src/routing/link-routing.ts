import type { UplinkNotice } from '@tps/link';
import type { LinkKind } from './routing-ports';

/**
 * What the links of this replica tell the other replicas, and how a request reaches a link held
 * by another one (contract, scale-out). On one process (SQLite) it does nothing and costs nothing.
 */
export interface LinkRouting {
  /**
   * Whether links move between replicas (several replicas): a request that finds no holder waits a
   * moment for its link to come up elsewhere.
   */
  readonly linksMove: boolean;
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
  /**
   * Stops being stored as the holder of these uplinks, which are about to close (a drain, or a
   * terminal asked to link again): the other replicas hand this one nothing more for them and
   * wait for the link to come up elsewhere. Resolves once written (or once the write failed).
   */
  letGo(serials: readonly string[]): Promise<void>;
  /** Resolves once the holder writes queued so far are done (a stop waits for them before the pool closes). */
  flush(): Promise<void>;
}

export const LINK_ROUTING = Symbol('LinkRouting');

/** One process: every link is this process's own. */
export const LOCAL_ONLY: LinkRouting = {
  linksMove: false,
  uplinkOpened: () => undefined,
  uplinkClosed: () => undefined,
  controlOpened: () => undefined,
  controlClosed: () => undefined,
  route: () => Promise.resolve(undefined),
  noticeElsewhere: () => undefined,
  linkedAnywhere: () => Promise.resolve(undefined),
  shareHolder: () => Promise.resolve(undefined),
  uplinksAnywhere: () => Promise.resolve(undefined),
  letGo: () => Promise.resolve(),
  flush: () => Promise.resolve(),
};
