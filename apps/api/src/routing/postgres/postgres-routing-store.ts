import type { Pool, QueryResult, QueryResultRow } from 'pg';
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
    WHERE o.serial_number = $1 AND r.heartbeat_at > now() - $2 * interval '1 millisecond' AND o.replica_id <> $3`,
  control: `SELECT o.replica_id, o.replica_epoch FROM share_holders o
    JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
    WHERE o.share = $1 AND r.heartbeat_at > now() - $2 * interval '1 millisecond' AND o.replica_id <> $3`,
};

/** Requests handed to this replica still pending (`$1`, `$2`: its id and epoch), and still awaited: their caller may still wait. */
const CLAIMABLE = `SELECT id FROM routed_requests
  WHERE replica_id = $1 AND replica_epoch = $2 AND state = 'pending'
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
 * (named): parsing and planning them again for every routed request cost the server more than
 * running them. Through a pooler (`named` false) they are not: a transaction-mode pooler gives
 * each statement whichever server session is free.
 */
export class PostgresRoutingStore implements RoutedRequestStore {
  constructor(
    private readonly pool: Pool,
    private readonly replica: ThisReplica,
    private readonly wordStart: WordStart,
    private readonly named = true,
  ) {}

  async hand(
    id: string,
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<string | undefined> {
    const { rows } = await this.prepared<{ replica_id: string }>(
      `routing-hand-${link}`,
      `WITH handed AS (
         INSERT INTO routed_requests (id, replica_id, replica_epoch, link, serial_number, request, timeout_ms, state, created_at)
         SELECT $4, h.replica_id, h.replica_epoch, $5, $6, $7, $8, 'pending', now() FROM (${HOLDER[link]}) h
         RETURNING id, replica_id)
       SELECT replica_id, pg_notify('${MESSAGE_CHANNEL}', $9 || json_build_object('replica', replica_id, 'id', id)::text || '}')
       FROM handed`,
      [
        key,
        this.replica.lapseMs,
        this.replica.id,
        id,
        link,
        serial,
        JSON.stringify(request),
        timeoutMs,
        this.wordStart('route.handed'),
      ],
    );
    return rows[0]?.replica_id;
  }

  async takeReply(id: string): Promise<RoutedReply | 'holder gone' | undefined> {
    // The holder's liveness is read from the same snapshot, before the DELETE: one round trip.
    const { rows } = await this.prepared<{ reply: string | null; alive: boolean }>(
      'routing-take-reply',
      `WITH answered AS (DELETE FROM routed_requests WHERE id = $1 AND state = 'answered' RETURNING reply)
       SELECT (SELECT reply FROM answered) AS reply, EXISTS (
         SELECT 1 FROM routed_requests q JOIN api_replicas r ON r.id = q.replica_id AND r.epoch = q.replica_epoch
         WHERE q.id = $1 AND r.heartbeat_at > now() - $2 * interval '1 millisecond') AS alive`,
      [id, this.replica.lapseMs],
    );
    const row = rows[0];
    if (row.reply !== null) return JSON.parse(row.reply) as RoutedReply;
    return row.alive ? undefined : 'holder gone';
  }

  async abandon(id: string): Promise<Abandoned> {
    const { rows } = await this.prepared<{ state: string; reply: string | null }>(
      'routing-abandon',
      'DELETE FROM routed_requests WHERE id = $1 RETURNING state, reply',
      [id],
    );
    const row = rows[0];
    if (row === undefined) return { state: 'gone' };
    if (row.state === 'answered' && row.reply !== null) {
      return { state: 'answered', reply: JSON.parse(row.reply) as RoutedReply };
    }
    return { state: row.state === 'pending' ? 'pending' : 'taken' };
  }

  async forget(ids: string[]): Promise<void> {
    await this.prepared('routing-forget', 'DELETE FROM routed_requests WHERE id = ANY($1::varchar[])', [ids]);
  }

  async claim(id: string | undefined): Promise<HandedRequest[]> {
    // Only while its caller may still wait: one that gave up has taken the row away, or will. One
    // request, or all: two statements, so that each has a plan of its own (by the key, by the replica).
    const { rows } =
      id === undefined
        ? await this.prepared<HandedRow>('routing-claim-all', claimSql(CLAIMABLE), [
            this.replica.id,
            this.replica.epoch,
          ])
        : await this.prepared<HandedRow>('routing-claim-one', claimSql(`${CLAIMABLE} AND id = $3`), [
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
    const { rowCount } = await this.prepared(
      'routing-answer',
      `WITH answered AS (
         UPDATE routed_requests SET state = 'answered', reply = $2 WHERE id = $1 AND state = 'taken' RETURNING id)
       SELECT pg_notify('${MESSAGE_CHANNEL}', $3) FROM answered`,
      [id, replyJson, word],
    );
    return (rowCount ?? 0) > 0;
  }

  private prepared<R extends QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    return this.pool.query<R>(this.named ? { name, text, values } : { text, values });
  }
}
