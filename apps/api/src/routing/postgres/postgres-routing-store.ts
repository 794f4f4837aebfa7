import type { DataSource } from 'typeorm';
import { sqlOf, type Sql } from '@tps/database';
import { MESSAGE_CHANNEL } from '@tps/messaging';
import type { Abandoned, HandedRequest, LinkKind, RoutedReply, RoutedRequestStore } from '../routing-ports';
import { answeredMessage, type WordStart } from '../routing-words';
import type { ThisReplica } from '../this-replica';

/** Requests handed to this replica taken at once by one poll: a bound on one statement's work. */
const CLAIMED_PER_POLL = 100;

/** The live holder of a link: the stored owner, while its replica's heartbeat is fresh. */
const HOLDER: Record<LinkKind, string> = {
  uplink: `SELECT o.replica_id, o.replica_epoch FROM terminal_uplinks o
    JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
    WHERE o.serial_number = ? AND r.heartbeat_at > now() - ? * interval '1 millisecond' AND o.replica_id <> ?`,
  control: `SELECT o.replica_id, o.replica_epoch FROM share_holders o
    JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
    WHERE o.share = ? AND r.heartbeat_at > now() - ? * interval '1 millisecond' AND o.replica_id <> ?`,
};

/** Requests handed to this replica still pending (its `?`: its id and epoch), and still awaited: their caller may still wait. */
const CLAIMABLE = `SELECT id FROM routed_requests
  WHERE replica_id = ? AND replica_epoch = ? AND state = 'pending'
    AND created_at + timeout_ms * interval '1 millisecond' > now()`;

/** Takes the requests of `claimable`, at most CLAIMED_PER_POLL, and reads them. */
const claimSql = (claimable: string): string => `UPDATE routed_requests SET state = 'taken'
  WHERE id IN (${claimable} LIMIT ${CLAIMED_PER_POLL} FOR UPDATE SKIP LOCKED)
  RETURNING id, link, serial_number, request, timeout_ms`;

interface HandedRow {
  id: string;
  link: LinkKind;
  serial_number: string;
  request: string;
  timeout_ms: string | number;
}

/**
 * The requests between replicas, on PostgreSQL: each method one statement. The hand-over and the
 * answer each send their word (NOTIFY) in their own statement: the table is unlogged, so that
 * commit waits for no flush while it holds the notification queue's lock, and the word is heard only
 * once the row is committed. On a direct connection each statement is prepared once per connection
 * (named, as sqlOf names them): parsing and planning them again for every routed request cost the
 * server more than running them. Through a pooler they are not: a transaction-mode pooler gives
 * each statement whichever server session is free.
 */
export class PostgresRoutingStore implements RoutedRequestStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly replica: ThisReplica,
    private readonly wordStart: WordStart,
  ) {}

  private get sql(): Sql {
    return sqlOf(this.dataSource.manager);
  }

  async hand(
    id: string,
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<string | undefined> {
    const [row] = await this.sql.all<{ replica_id: string }>(
      `WITH handed AS (
         INSERT INTO routed_requests (id, replica_id, replica_epoch, link, serial_number, request, timeout_ms, state, created_at)
         SELECT ?, h.replica_id, h.replica_epoch, ?, ?, ?, ?, 'pending', now() FROM (${HOLDER[link]}) h
         RETURNING id, replica_id)
       SELECT replica_id, pg_notify('${MESSAGE_CHANNEL}', ? || json_build_object('replica', replica_id, 'id', id)::text || '}')
       FROM handed`,
      [
        id,
        link,
        serial,
        JSON.stringify(request),
        timeoutMs,
        key,
        this.replica.lapseMs,
        this.replica.id,
        this.wordStart('route.handed'),
      ],
    );
    return row?.replica_id;
  }

  async takeReply(id: string): Promise<RoutedReply | 'holder gone' | undefined> {
    // The holder's liveness is read from the same snapshot, before the DELETE: one round trip.
    const [row] = await this.sql.all<{ reply: string | null; alive: boolean }>(
      `WITH answered AS (DELETE FROM routed_requests WHERE id = ? AND state = 'answered' RETURNING reply)
       SELECT (SELECT reply FROM answered) AS reply, EXISTS (
         SELECT 1 FROM routed_requests q JOIN api_replicas r ON r.id = q.replica_id AND r.epoch = q.replica_epoch
         WHERE q.id = ? AND r.heartbeat_at > now() - ? * interval '1 millisecond') AS alive`,
      [id, id, this.replica.lapseMs],
    );
    if (row.reply !== null) return JSON.parse(row.reply) as RoutedReply;
    return row.alive ? undefined : 'holder gone';
  }

  async abandon(id: string): Promise<Abandoned> {
    const [row] = await this.sql.all<{ state: string; reply: string | null }>(
      'DELETE FROM routed_requests WHERE id = ? RETURNING state, reply',
      [id],
    );
    if (row === undefined) return { state: 'gone' };
    if (row.state === 'answered' && row.reply !== null) {
      return { state: 'answered', reply: JSON.parse(row.reply) as RoutedReply };
    }
    return { state: row.state === 'pending' ? 'pending' : 'taken' };
  }

  async forget(ids: string[]): Promise<void> {
    await this.sql.run('DELETE FROM routed_requests WHERE id = ANY(?::varchar[])', [ids]);
  }

  async claim(id: string | undefined): Promise<HandedRequest[]> {
    // Only while its caller may still wait: one that gave up has taken the row away, or will. One
    // request, or all: two statements, so that each has a plan of its own (by the key, by the replica).
    const rows =
      id === undefined
        ? await this.sql.all<HandedRow>(claimSql(CLAIMABLE), [this.replica.id, this.replica.epoch])
        : await this.sql.all<HandedRow>(claimSql(`${CLAIMABLE} AND id = ?`), [
            this.replica.id,
            this.replica.epoch,
            id,
          ]);
    return rows.map((row) => ({
      id: row.id,
      link: row.link,
      serial: row.serial_number,
      request: JSON.parse(row.request) as unknown,
      timeoutMs: Number(row.timeout_ms),
    }));
  }

  async answer(id: string, reply: RoutedReply): Promise<boolean> {
    const replyJson = JSON.stringify(reply);
    const word = `${this.wordStart('route.answered')}${answeredMessage(id, replyJson)}}`;
    const told = await this.sql.all(
      `WITH answered AS (
         UPDATE routed_requests SET state = 'answered', reply = ? WHERE id = ? AND state = 'taken' RETURNING id)
       SELECT pg_notify('${MESSAGE_CHANNEL}', ?) FROM answered`,
      [replyJson, id, word],
    );
    return told.length > 0;
  }
}
