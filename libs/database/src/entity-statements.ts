/**
 * The statements EntityTable sends, by their shape (a store's adapter writes them: sqlite/, which
 * PostgreSQL's takes as it is). EntityTable decides what goes in them (which columns, how many
 * rows, the parameters in order); here each is only put into words. Names come quoted, and every
 * value is a `?` parameter, or the placeholder given for its column where a list of values needs
 * one typed (StoreAdapter.placeholderOf).
 */
export interface EntityStatements {
  /** `rows` rows of `columns`' values; `ending` says what a conflict on a unique key does, or what it answers. */
  insert(table: string, columns: readonly string[], rows: number, ending?: InsertEnding): string;
  /** `insert` as an INSERT … SELECT from a list of `rows` values (`placeholders`: one row's). */
  insertSelect(
    table: string,
    columns: readonly string[],
    placeholders: readonly string[],
    rows: number,
  ): string;
  /** Sets each of `columns` to a parameter (and `touched`, a column, to now) on the rows `where` picks. */
  update(
    table: string,
    columns: readonly string[],
    touched: string | undefined,
    where: readonly Equality[],
  ): string;
  /** See EachUpdate. */
  updateEach(update: EachUpdate): string;
  /** Adds a parameter to `column` (and sets `touched`, a column, to now) on the rows `where` picks. */
  add(table: string, column: string, touched: string | undefined, where: readonly Equality[]): string;
  delete(table: string, where: readonly Equality[]): string;
  select(selection: Selection): string;
  /** How many rows `where` picks, as `count`. */
  count(table: string, where: readonly Equality[]): string;
}

/** How an INSERT ends: a row a unique key already holds is skipped, or each inserted row answers `returning`. */
export type InsertEnding = { unlessTaken: true } | { returning: string };

/**
 * A condition of a WHERE: the column holds the next parameter's value, or (`isNull`) none, or
 * (`among`) one of the next `among` parameters' values.
 */
export interface Equality {
  column: string;
  isNull: boolean;
  among?: number;
}

/**
 * One UPDATE of many rows from a list of values (`rows` of `placeholders`, named `columns`),
 * each setting `set` on the table's row whose `key` it gives (and `touched` to now), where the
 * row already holds its values of `matching` and every `guarded` column holds a parameter's
 * value (after the list's); with either, it answers the keys it changed (`changed`).
 */
export interface EachUpdate {
  table: string;
  key: string;
  columns: readonly string[];
  placeholders: readonly string[];
  rows: number;
  set: readonly string[];
  touched: string | undefined;
  matching: readonly string[];
  guarded: readonly string[];
}

/** A SELECT of `columns` of the rows `where` picks, in `orderBy`'s order, `limit` of them, locked (`lock`: FOR UPDATE) or not. */
export interface Selection {
  table: string;
  columns: readonly string[];
  where: readonly Equality[];
  orderBy: ReadonlyArray<readonly [string, 'ASC' | 'DESC']>;
  limit: number | undefined;
  lock: boolean;
}
