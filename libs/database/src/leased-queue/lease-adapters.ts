/** What the stores do differently when rows are leased: the rest of LeasedQueue is one SQL. */
export interface LeaseAdapter {
  /**
   * Ends the claim's row choice: PostgreSQL skips the rows another process is claiming at this
   * moment instead of waiting for them, and no row lock outlives the statement. SQLite's write
   * holds the whole file: nothing to add.
   */
  readonly skipLocked: string;
  /**
   * Which leased rows a process takes as its own when it starts: every one (SQLite: a file serves
   * one process), or only its predecessor's, those of its own replica (PostgreSQL: the others'
   * are claimed when their leases end).
   */
  readonly adopts: 'every' | 'predecessor';
}
