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
