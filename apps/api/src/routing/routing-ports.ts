import type { ErrorBody } from '@tps/domain';

/** Which of a terminal's links a request travels on: its own uplink, or its share's control link. */
export type LinkKind = 'uplink' | 'control';

/** What the replica that holds the link stored as the request's reply. */
export type RoutedReply = { ok: unknown } | { error: ErrorBody };

/** A request handed to this replica, as it was stored. */
export interface HandedRequest {
  id: string;
  link: LinkKind;
  serial: string;
  request: unknown;
  timeoutMs: number;
}

/** Where a routed request stands when its caller stops waiting. */
export type Abandoned =
  { state: 'pending' } | { state: 'taken' } | { state: 'answered'; reply: RoutedReply } | { state: 'gone' };

/** The stored requests between replicas (PostgreSQL; in memory for unit specs). */
export interface RoutedRequestStore {
  /**
   * Stores a request for the live replica that holds the link (`key`: a serial for an uplink, a
   * share for a control link), and tells that replica (`route.handed`), in one statement; undefined
   * when no live replica other than this one holds it.
   */
  hand(
    id: string,
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<string | undefined>;
  /**
   * The reply, once stored (the request's row goes with it); `holder gone` once the replica it was
   * handed to is dead (its heartbeat lapsed) with no reply stored.
   */
  takeReply(id: string): Promise<RoutedReply | 'holder gone' | undefined>;
  /** The caller stops waiting: the row goes, and says how far it got. */
  abandon(id: string): Promise<Abandoned>;
  /** Removes the rows of replies their callers had from the holder's word, in one statement. */
  forget(ids: string[]): Promise<void>;
  /** Takes requests handed to this replica: one by id, or all still pending (`undefined`). */
  claim(id: string | undefined): Promise<HandedRequest[]>;
  /**
   * Stores the reply of a request this replica took and tells its caller (`route.answered`, with the
   * reply when it is small), in one statement; false when its caller no longer waits (the row is
   * gone): then nothing is told.
   */
  answer(id: string, reply: RoutedReply): Promise<boolean>;
}

/** The replicas' rows on the shared database: who is in the cluster, and alive. */
export interface ReplicaRows {
  /** Stores the replica as started and heard from now; resolves its epoch, one more than its last. */
  join(id: string): Promise<number>;
  /** Stores the replica of that epoch as heard from now. */
  beat(id: string, epoch: number): Promise<void>;
  /** Removes the replica of that epoch: what it held is held by nobody. */
  leave(id: string, epoch: number): Promise<void>;
}

/** The links a replica holds: uplinks by serial, control links by share with their grant. */
export interface HeldLinks {
  uplinks: ReadonlySet<string>;
  controls: ReadonlyMap<string, { instance: string; epoch: number }>;
}

/**
 * Which replica holds each terminal's uplink and each share's control link, as stored for the
 * other replicas: written by this replica for its own links, read for anyone's while its replica
 * is alive (its heartbeat fresh).
 */
export interface LinkHolders {
  /** Stores how each uplink stands here (true: opened, false: closed), all at once. */
  uplinksChanged(changes: ReadonlyMap<string, boolean>): Promise<void>;
  controlOpened(share: string, instance: string, epoch: number): Promise<void>;
  controlClosed(share: string): Promise<void>;
  /** The uplinks linked to a live replica, and whether the share's control link is. */
  liveLinks(share: string): Promise<{ uplinks: Set<string>; control: boolean }>;
  /** The grant of the share's control link, if a live replica holds it. */
  liveShareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined>;
  /** Of `serials`, those linked to a live replica, with when they linked (the database's text). */
  liveUplinksAmong(serials: readonly string[]): Promise<Map<string, string>>;
  /**
   * Makes the rows stored as this replica's agree with what it holds (a repair after failed
   * writes). Resolves whether every link held here is now stored as held here: not when another
   * live replica is stored as holding one, whose row only that replica removes.
   */
  rewrite(held: HeldLinks): Promise<boolean>;
}

/** The rows of routed requests whose caller died while it waited: nobody else takes them away. */
export interface LeftBehindRequests {
  /**
   * Removes at most `limit` rows of requests past their reply timeout by `afterMs`; resolves how
   * many it removed.
   */
  remove(afterMs: number, limit: number): Promise<number>;
}
