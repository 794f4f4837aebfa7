/** A table whose columns hold sealed secrets (contract, "Secrets at rest"). */
export interface SealedTable {
  table: string;
  /** Its primary key: one text column. */
  key: string;
  /** The columns that hold sealed values (or null). */
  columns: readonly string[];
}

/** A row's key and its sealed columns' values, as stored. */
export interface SealedRow {
  key: string;
  values: Record<string, string | null>;
}

/** One stored value to replace by another, if it is still the one read. */
export interface SealedChange {
  key: string;
  column: string;
  from: string;
  to: string;
}

/** The sealed values of a table, by how they begin (a key's prefix: SecretKeyring). */
export abstract class SealedSecrets {
  /**
   * At most `limit` rows whose key comes after `after`, in the keys' order, with a value in some
   * sealed column that does not begin with `prefix`.
   */
  abstract notBeginningWith(prefix: string, after: string, limit: number): Promise<SealedRow[]>;
  /** Replaces each value that is still the one read, in one write; resolves how many it replaced. */
  abstract replace(changes: readonly SealedChange[]): Promise<number>;
  /** A value that begins with `sealed` and with none of `excluded`, if there is one. */
  abstract oneOutside(sealed: string, excluded: readonly string[]): Promise<string | undefined>;
  /** How many rows hold a value that begins with `prefix`. */
  abstract countBeginningWith(prefix: string): Promise<number>;
}
