/**
 * The statements LeasedQueue sends, by their shape, and what the stores do differently when rows
 * are leased. LeasedQueue decides which rows (the conditions, `where`), the parameters and their
 * order; an adapter puts each statement into words: SQLite's (sqlite/lease-statements.ts), which
 * PostgreSQL's takes but for `chosen` and `adopts` (postgres/postgres-leases.ts). Names come as
 * SQL; each `?` is a parameter, in the order the statement's text gives them.
 */
export interface LeaseAdapter {
  /** Sets `sets` on the rows `where` picks; with `returning`, answers it for each row it changed. */
  update(table: string, sets: string, where: string, returning?: string): string;
  /** A row (`claimable`) of the table, named `c`, that `where` picks, if there is one. */
  anyOf(table: string, where: string): string;
  /** No row of the table, named `e`, is one that `where` picks. */
  noneOf(table: string, where: string): string;
  /** The ids of the rows of the table, named `c`, that `where` picks. */
  idsOf(table: string, id: string, where: string): string;
  /** `ids` (idsOf's) in `order`, the first of them, as many as its last parameter says. */
  firstInOrder(ids: string, order: string): string;
  /**
   * The rows of the table (named `c`) that `where` picks, each with its `id`, its `order` as
   * `due`, the first `kept` of `shares` (expressions of `c`) as `share_0`…, and its rank among
   * the rows of its innermost share (all of `shares`) in the table's order, as `share_rank`.
   */
  rankedInShares(
    table: string,
    id: string,
    order: string,
    shares: readonly string[],
    kept: number,
    where: string,
  ): string;
  /**
   * The rows `ranked` gives, with their first `kept` shares, each ranked again among the rows of
   * its share out to `depth` (its `share_0`… to `depth`) by its rank in the inner share, then `due`.
   */
  rankedInOuterShares(ranked: string, depth: number, kept: number): string;
  /** The ids of `ranked`'s rows by rank, then `due`: the first, as many as its one parameter says. */
  firstByRank(ranked: string): string;
  /**
   * firstByRank of the rows whose rank is within what their outermost share's cap (the first
   * parameter) leaves past the rows `held` counts (heldPerShare's) it holds; the limit the second.
   */
  firstByRankUnderCap(ranked: string, held: string): string;
  /** The rows of the table (named `l`) that `where` picks, counted (`held`) by `share` (`share_0`). */
  heldPerShare(table: string, share: string, where: string): string;
  /** A condition that the column's text starts with a parameter, its length given first. */
  startsWith(column: string): string;
  /**
   * The condition on a row's id that a claim takes it by: one of the ids `choose` (a SELECT of
   * them) picks. PostgreSQL skips the rows another process is claiming at this moment instead of
   * waiting for them, no row lock outlives the statement, and the choice is made once (a subquery
   * that a join reads again would lock the next rows on each reading, past its LIMIT). SQLite's
   * write holds the whole file: the plain subquery.
   */
  chosen(choose: string): string;
  /**
   * Which leased rows a process takes as its own when it starts: every one (SQLite: a file serves
   * one process), or only its predecessor's, those of its own replica (PostgreSQL: the others'
   * are claimed when their leases end).
   */
  readonly adopts: 'every' | 'predecessor';
}
