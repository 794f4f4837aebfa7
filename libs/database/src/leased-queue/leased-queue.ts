import type { DataSource } from 'typeorm';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';
import type { SqlValue } from '../prepared-sqlite';
import { storeOf } from '../stores';
import type { LeaseAdapter } from './lease-adapters';

/** The table a LeasedQueue leases rows of, by its columns (SQL names). */
export interface LeasedTable {
  table: string;
  id: string;
  owner: string;
  leaseUntil: string;
  /** The rows still to be worked: a condition on the row, which it names `{row}` (`{row}.state = 'pending'`). */
  pending: string;
  /** Claims take rows in this order (a column). */
  order: string;
  /** Only the head of each key's queue is claimed: a row no earlier pending row of its key precedes. */
  queue?: { key: string; position: string };
  /**
   * A pending row with no lease at all was written by a process of the version before leases,
   * which works it unleased (contract, "Rolling deploys"). `due`: taken once the time this
   * expression of the row (named `{row}` as in `pending`) gives is `unleasedAfterMs` past, when that process, alive, would have worked it.
   * `notice`: first given a lease of no owner ending `unleasedAfterMs` from the claim that saw it,
   * then taken as any row whose lease ended (for rows that keep no due time of the service's own).
   */
  unleased: { due: string } | 'notice';
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

/** The lease end of a row given back: before any time, so any process claims it at once. */
const GIVEN_BACK = iso(0);

/**
 * Rows of one table leased to processes, one owner at a time (contract, "Several replicas"): a
 * process adopts its predecessor's at start, claims what no live process holds, renews what it
 * holds, and gives it all back at a stop (the caller records a row's result only where its owner
 * is still this process). Every change is one statement, committed at once (a claim that first
 * notices unleased rows, two in one write): no row lock is held across the work.
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
    const { table, owner, leaseUntil } = this.spec;
    const until = iso(Date.now() + this.holder.leaseMs);
    const predecessor = this.adapter.adopts === 'predecessor' ? ` AND substr(${owner}, 1, ?) = ?` : '';
    const params: SqlValue[] =
      this.adapter.adopts === 'predecessor' ? [this.holder.replica.length, this.holder.replica] : [];
    return this.writer.write((manager) =>
      sqlOf(manager).all<T>(
        `UPDATE ${table} SET ${owner} = ?, ${leaseUntil} = ? WHERE ${this.pendingOf(table)}${predecessor} RETURNING ${returning}`,
        [this.holder.id, until, ...params],
      ),
    );
  }

  /**
   * Leases to this process until `until` up to `limit` pending rows no live process holds, first
   * in the table's order, each the head of its key's queue; returns them with `returning`.
   */
  async claim<T>(now: number, until: number, limit: number, returning: string): Promise<T[]> {
    const { table, id, owner, leaseUntil, order, unleased } = this.spec;
    const claimable = this.claimable(now);
    // A look first, on the reading connection: an idle table costs no write.
    const [any] = await sqlOf(this.reads.manager).all(
      `SELECT 1 AS claimable FROM ${table} c WHERE (${claimable.where})${unleased === 'notice' ? ` OR (${this.unnoticed('c')})` : ''} LIMIT 1`,
      claimable.params,
    );
    if (any === undefined) return [];
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      if (unleased === 'notice') {
        await sql.run(`UPDATE ${table} SET ${leaseUntil} = ? WHERE ${this.unnoticed(table)}`, [
          iso(now + this.holder.unleasedAfterMs),
        ]);
      }
      return sql.all<T>(
        `UPDATE ${table} SET ${owner} = ?, ${leaseUntil} = ? WHERE ${id} IN ` +
          `(SELECT c.${id} FROM ${table} c WHERE ${claimable.where} ORDER BY c.${order} LIMIT ?${this.adapter.skipLocked}) ` +
          `RETURNING ${returning}`,
        [this.holder.id, iso(until), ...claimable.params, limit],
      );
    });
  }

  /** Extends the leases this process holds (of `ids` only, when given); the ids it still holds. */
  async renew(until: number, ids?: readonly string[]): Promise<string[]> {
    if (ids?.length === 0) return [];
    const { table, id, owner, leaseUntil } = this.spec;
    const only = ids === undefined ? '' : ` AND ${id} IN (${ids.map(() => '?').join(', ')})`;
    const rows = await this.writer.write((manager) =>
      sqlOf(manager).all<{ id: string }>(
        `UPDATE ${table} SET ${leaseUntil} = ? WHERE ${owner} = ? AND ${this.pendingOf(table)}${only} RETURNING ${id} AS id`,
        [iso(until), this.holder.id, ...(ids ?? [])],
      ),
    );
    return rows.map((row) => row.id);
  }

  /** Gives back every pending row this process holds, for another process to claim at once. */
  async release(): Promise<void> {
    const { table, owner, leaseUntil } = this.spec;
    await this.writer.write((manager) =>
      sqlOf(manager).run(
        `UPDATE ${table} SET ${owner} = NULL, ${leaseUntil} = ? WHERE ${owner} = ? AND ${this.pendingOf(table)}`,
        [GIVEN_BACK, this.holder.id],
      ),
    );
  }

  /**
   * Pending rows (alias `c`) no process holds: given back, or another process's whose lease ended
   * before `now` (its own a process keeps by renewing them), or unleased and past their wait; and
   * each the head of its key's queue, whoever holds the rows before it.
   */
  private claimable(now: number): { where: string; params: SqlValue[] } {
    const { table, owner, leaseUntil, queue, unleased } = this.spec;
    const free = `(c.${leaseUntil} < ? AND (c.${owner} IS NULL OR c.${owner} <> ?))`;
    const params: SqlValue[] = [iso(now), this.holder.id];
    let where = `${this.pendingOf('c')} AND (${free}`;
    if (unleased === 'notice') where += ')';
    else {
      where += ` OR (c.${leaseUntil} IS NULL AND ${onRow(unleased.due, 'c')} < ?))`;
      params.push(iso(now - this.holder.unleasedAfterMs));
    }
    if (queue !== undefined) {
      where +=
        ` AND NOT EXISTS (SELECT 1 FROM ${table} e WHERE e.${queue.key} = c.${queue.key}` +
        ` AND e.${queue.position} < c.${queue.position} AND ${this.pendingOf('e')})`;
    }
    return { where, params };
  }

  private pendingOf(alias: string): string {
    return onRow(this.spec.pending, alias);
  }

  private unnoticed(alias: string): string {
    return `${this.pendingOf(alias)} AND ${alias}.${this.spec.leaseUntil} IS NULL`;
  }
}
