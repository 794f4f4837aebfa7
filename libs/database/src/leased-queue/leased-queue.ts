import type { DataSource } from 'typeorm';
import type { SerialWriter } from '../serial-writer';
import { sqlOf, type Sql, type SqlValue } from '../sql';
import { storeOf } from '../stores';
import type { LeaseAdapter } from './lease-adapters';

/** The table a LeasedQueue leases rows of, by its columns (SQL names). */
export interface LeasedTable {
  table: string;
  /** Names a row among those a call's RowCondition picks (alone, with none). */
  id: string;
  owner: string;
  /** What `owner` holds while nobody holds the row, as SQL: NULL unless given ('' where it may not be NULL). */
  nobody?: string;
  leaseUntil: string;
  /**
   * Counted up at each claim (and adoption), so that a process records a row's result only under
   * the epoch it claimed it at: a late result of an earlier lease of the same process, lost and
   * claimed again since, is not taken for the new one's. Absent where no result is recorded.
   */
  epoch?: string;
  /** How `leaseUntil` is stored: ISO-8601 text (by default), or milliseconds since the epoch. */
  leaseTime?: 'iso' | 'ms';
  /**
   * The rows still to be worked: a condition on the row, which it names `{row}`
   * (`{row}.state = 'pending'`). Every row, when absent (a row is a slot, not work to do).
   */
  pending?: string;
  /** Claims take rows in this order (a column). */
  order: string;
  /**
   * Shares a claim interleaves by, outermost first: expressions of the row, named `{row}` as in
   * `pending` (its merchant, then its destination). A claim of n rows takes the head of every
   * share's backlog before the second row of any, and within a share the same of its inner
   * shares; in `order` among equals. Absent: the table's order alone.
   */
  share?: readonly string[];
  /**
   * Rows of one outermost share (a merchant) held at once, by every holder together, that a
   * claim tops up to and no further: it takes of the share at most the cap less the share's
   * pending rows leased to an owner whose lease has not ended (rows leased at insert included),
   * so no share holds more than the cap through claims, however many processes claim. With
   * `share` only. Absent: no cap.
   */
  shareCap?: number;
  /** Only the head of each key's queue is claimed: a row no earlier pending row of its key precedes. */
  queue?: { key: string; position: string };
  /**
   * A pending row with no lease at all was written by a process of the version before leases,
   * which works it unleased (contract, "Rolling deploys"). `due`: taken once the time this
   * expression of the row (named `{row}` as in `pending`) gives is `unleasedAfterMs` past, when that process, alive, would have worked it.
   * `notice`: first given a lease of no owner ending `unleasedAfterMs` from the claim that saw it,
   * then taken as any row whose lease ended (for rows that keep no due time of the service's own).
   * Absent: a row with no lease is nobody's, free at once.
   */
  unleased?: { due: string } | 'notice';
}

/** Some rows of the table: a condition naming the row `{row}`, with its `?` parameters in order. */
export interface RowCondition {
  where: string;
  params: readonly SqlValue[];
}

/** Who leases: this process, and its replica (the prefix every owner of the replica starts with). */
export interface LeaseHolder {
  id: string;
  replica: string;
  leaseMs: number;
  unleasedAfterMs: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A condition or expression of LeasedTable, its `{row}` named `alias`. */
const onRow = (text: string, alias: string): string => text.replace(/\{row\}/g, alias);

/** Conditions that must all hold, those given: every row when none is. */
const allOf = (...conditions: Array<string | undefined>): string =>
  conditions.filter((condition) => condition !== undefined).join(' AND ') || '1 = 1';

/**
 * Rows of one table leased to processes, one owner at a time (contract, "Several replicas"): a
 * process adopts its predecessor's at start, claims what no live process holds, renews what it
 * holds, and gives it back (all at a stop, or some). The caller records a row's result only where
 * its owner is still this process, under the epoch it claimed the row at. Every change is one statement, committed at once (a claim that
 * first notices unleased rows, two in one write): no row lock is held across the work.
 */
export class LeasedQueue {
  private readonly adapter: LeaseAdapter;
  /** Whether several processes share the table, so that what they hold must be leased at all. */
  readonly shared: boolean;

  constructor(
    private readonly spec: LeasedTable,
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
    private readonly holder: LeaseHolder,
  ) {
    const store = storeOf(reads.options);
    this.adapter = store.leases;
    this.shared = store.shared;
  }

  /** The rows this process takes as its own at start (see LeaseAdapter.adopts), with `returning`. */
  adopt<T>(returning: string): Promise<T[]> {
    const { table, owner } = this.spec;
    const until = this.at(Date.now() + this.holder.leaseMs);
    const predecessor = this.adapter.adopts === 'predecessor' ? this.adapter.startsWith(owner) : undefined;
    const params: SqlValue[] =
      this.adapter.adopts === 'predecessor' ? [this.holder.replica.length, this.holder.replica] : [];
    return this.writer.writeOne((manager) =>
      sqlOf(manager).all<T>(
        this.adapter.update(table, this.claimed(), allOf(this.pendingOf(table), predecessor), returning),
        [this.holder.id, until, ...params],
      ),
    );
  }

  /**
   * Leases to this process until `until` up to `limit` pending rows no live process holds (of
   * those `among` picks, when given), first in the table's order (by rank in their shares, when
   * the table has shares, and no more of a share than its cap leaves), each the head of its key's
   * queue; returns them with `returning`.
   */
  async claim<T>(
    now: number,
    until: number,
    limit: number,
    returning: string,
    among?: RowCondition,
  ): Promise<T[]> {
    const { table, id, leaseUntil, unleased } = this.spec;
    const claimable = this.claimable(now, among);
    const notices = unleased === 'notice';
    // Polling the whole table, a look first on the reading connection: an idle table costs no write.
    // A claim among some rows is made when one is wanted now (a slot): straight to its write.
    if (among === undefined) {
      const [any] = await sqlOf(this.reads.manager).all(
        this.adapter.anyOf(table, `(${claimable.where})${notices ? ` OR (${this.unnoticed('c')})` : ''}`),
        claimable.params,
      );
      if (any === undefined) return [];
    }
    const choice = this.choice(claimable, now);
    const chosen = `${id} ${this.adapter.chosen(choice.sql)}`;
    const take = (sql: Sql): Promise<T[]> =>
      sql.all<T>(
        this.adapter.update(table, this.claimed(), allOf(this.among(among, table), chosen), returning),
        [this.holder.id, this.at(until), ...(among?.params ?? []), ...choice.params, limit],
      );
    if (!notices) return this.writer.writeOne((manager) => take(sqlOf(manager)));
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      await sql.run(this.adapter.update(table, `${leaseUntil} = ?`, this.unnoticed(table)), [
        this.at(now + this.holder.unleasedAfterMs),
      ]);
      return take(sql);
    });
  }

  /** Extends the leases this process holds (of `ids` only, when given); the ids it still holds. */
  async renew(until: number, ids?: readonly string[]): Promise<string[]> {
    if (ids?.length === 0) return [];
    const { table, id, owner, leaseUntil } = this.spec;
    const only = ids === undefined ? undefined : `${id} IN (${ids.map(() => '?').join(', ')})`;
    const rows = await this.writer.writeOne((manager) =>
      sqlOf(manager).all<{ id: string }>(
        this.adapter.update(
          table,
          `${leaseUntil} = ?`,
          allOf(`${owner} = ?`, this.pendingOf(table), only),
          `${id} AS id`,
        ),
        [this.at(until), this.holder.id, ...(ids ?? [])],
      ),
    );
    return rows.map((row) => row.id);
  }

  /** Gives back the pending rows this process holds (those `among` picks, when given), for another process to claim at once. */
  async release(among?: RowCondition): Promise<void> {
    const { table, owner, leaseUntil } = this.spec;
    await this.writer.writeOne((manager) =>
      sqlOf(manager).run(
        this.adapter.update(
          table,
          `${owner} = ${this.spec.nobody ?? 'NULL'}, ${leaseUntil} = ?`,
          allOf(`${owner} = ?`, this.pendingOf(table), this.among(among, table)),
        ),
        // Before any time: any process claims it at once.
        [this.at(0), this.holder.id, ...(among?.params ?? [])],
      ),
    );
  }

  /**
   * Pending rows (alias `c`, of those `among` picks) no process holds: given back, or another
   * process's whose lease ended before `now` (its own a process keeps by renewing them), or
   * unleased and free or past their wait; and each the head of its key's queue, whoever holds the
   * rows before it.
   */
  private claimable(now: number, among?: RowCondition): { where: string; params: SqlValue[] } {
    const { table, owner, leaseUntil, queue, unleased } = this.spec;
    const params: SqlValue[] = [...(among?.params ?? []), this.at(now), this.holder.id];
    const ended = `(c.${leaseUntil} < ? AND (c.${owner} IS NULL OR c.${owner} <> ?))`;
    let free: string;
    if (unleased === undefined) free = `(${ended} OR c.${leaseUntil} IS NULL)`;
    else if (unleased === 'notice') free = ended;
    else {
      free = `(${ended} OR (c.${leaseUntil} IS NULL AND ${onRow(unleased.due, 'c')} < ?))`;
      params.push(iso(now - this.holder.unleasedAfterMs));
    }
    const headOfQueue =
      queue &&
      this.adapter.noneOf(
        table,
        allOf(
          `e.${queue.key} = c.${queue.key}`,
          `e.${queue.position} < c.${queue.position}`,
          this.pendingOf('e'),
        ),
      );
    return { where: allOf(this.among(among, 'c'), this.pendingOf('c'), free, headOfQueue), params };
  }

  /**
   * The SELECT of the ids a claim takes (of `claimable`, alias `c`), its last parameter the limit:
   * the first in the table's order, or, with shares, ranked within each share (ROW_NUMBER) from
   * the innermost out and taken by rank. The ranking is a subquery of its own, whose ids an outer
   * SELECT of the claimable rows takes: PostgreSQL locks no row in a SELECT with window functions,
   * and the outer one, which it locks, finds a row another process claimed meanwhile taken. With
   * a cap, a row's rank in its outermost share must be within what the share's held rows (as of
   * `now`) leave of it. Claims of several processes at once rank the same rows alike, so together
   * they take no row past those first ranks: each skips the rows another is taking, or finds them
   * taken on its re-check; and one that counts after another committed counts that one's rows.
   */
  private choice(
    claimable: { where: string; params: SqlValue[] },
    now: number,
  ): { sql: string; params: SqlValue[] } {
    const { table, id, order, share, shareCap } = this.spec;
    const claimableIds = this.adapter.idsOf(table, id, claimable.where);
    if (share === undefined || share.length === 0) {
      return { sql: this.adapter.firstInOrder(claimableIds, order), params: claimable.params };
    }
    const keys = share.map((key) => onRow(key, 'c'));
    // The outermost share's column goes out to the last ranking when a cap needs it there.
    const kept = this.capped() ? 1 : 0;
    // Innermost share first: each row's rank among its share's rows, in the table's order.
    let ranked = this.adapter.rankedInShares(
      table,
      id,
      order,
      keys,
      Math.max(keys.length - 1, kept),
      claimable.where,
    );
    // Then, out to the outermost, its rank among its outer share's rows by its inner rank.
    for (let depth = keys.length - 1; depth >= 1; depth -= 1) {
      ranked = this.adapter.rankedInOuterShares(ranked, depth, Math.max(depth - 1, kept));
    }
    if (shareCap === undefined) {
      return {
        sql: `${claimableIds} AND c.${id} IN (${this.adapter.firstByRank(ranked)})`,
        params: [...claimable.params, ...claimable.params],
      };
    }
    const firstByRank = this.adapter.firstByRankUnderCap(ranked, this.heldPerShare(share[0]));
    return {
      sql: `${claimableIds} AND c.${id} IN (${firstByRank})`,
      params: [...claimable.params, ...claimable.params, this.at(now), shareCap],
    };
  }

  /**
   * The pending rows each outermost share (`key`, column `share_0`) has leased to an owner whose
   * lease had not ended at the time of its one parameter (column `held`): whoever holds them,
   * this process included.
   */
  private heldPerShare(key: string): string {
    const { table, owner, leaseUntil, nobody } = this.spec;
    const leased = allOf(
      this.pendingOf('l'),
      `l.${owner} IS NOT NULL`,
      nobody === undefined ? undefined : `l.${owner} <> ${nobody}`,
      `l.${leaseUntil} >= ?`,
    );
    return this.adapter.heldPerShare(table, onRow(key, 'l'), leased);
  }

  /** Whether claims cap what an outermost share holds. */
  private capped(): boolean {
    return this.spec.shareCap !== undefined && (this.spec.share?.length ?? 0) > 0;
  }

  /** What a claim sets, its owner and lease end the first two parameters. */
  private claimed(): string {
    const { owner, leaseUntil, epoch } = this.spec;
    return `${owner} = ?, ${leaseUntil} = ?${epoch === undefined ? '' : `, ${epoch} = ${epoch} + 1`}`;
  }

  /** A lease end as the table stores it. */
  private at(ms: number): SqlValue {
    return this.spec.leaseTime === 'ms' ? ms : iso(ms);
  }

  private among(among: RowCondition | undefined, alias: string): string | undefined {
    return among && `(${onRow(among.where, alias)})`;
  }

  private pendingOf(alias: string): string | undefined {
    return this.spec.pending && onRow(this.spec.pending, alias);
  }

  private unnoticed(alias: string): string {
    return allOf(this.pendingOf(alias), `${alias}.${this.spec.leaseUntil} IS NULL`);
  }
}
