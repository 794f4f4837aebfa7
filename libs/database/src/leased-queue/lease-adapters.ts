/** What the stores do differently when rows are leased: the rest of LeasedQueue is one SQL. */
export interface LeaseAdapter {
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
