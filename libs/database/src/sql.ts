import type { EntityManager } from 'typeorm';
import { attributedSql } from './statement-recorder';
import { storeOf } from './stores';

/**
 * What a statement may be bound to. A list binds as one array, which only PostgreSQL takes
 * (`= ANY(?::varchar[])`, `unnest(?::varchar[])`): a fixed text for any number of values.
 */
export type SqlValue = string | number | null | Buffer | readonly string[] | readonly number[];

/** A statement with its parameters, built now and run later (Sql.together). */
export interface Statement {
  text: string;
  params: readonly SqlValue[];
  /**
   * The index, in the same Sql.together, of a statement with no condition of its own: this one
   * changes nothing unless that one changed a row. Its text must end with a FROM and no WHERE
   * (EntityTable.insertingSelect): PostgreSQL gets the condition as its WHERE. SQLite runs the
   * statements in order: this one is skipped when that one ran before it and changed nothing;
   * when that one comes after it, the write must roll back if it changed nothing.
   */
  ifChanged?: number;
}

/** Fixed SQL with `?` placeholders, run on the manager's connection (inside its write, if any). */
export interface Sql {
  /** A statement that returns no rows; resolves how many rows it changed. */
  run(text: string, params: readonly SqlValue[]): Promise<number>;
  all<T>(text: string, params: readonly SqlValue[]): Promise<T[]>;
  /**
   * Statements that change rows (INSERT, UPDATE or DELETE, with no RETURNING clause of their
   * own), in order; resolves how many rows each changed. PostgreSQL takes them as one statement
   * (each a data-modifying WITH), so they cost one trip to the server instead of one each. There
   * they all see the rows as they were before any of them ran, and run in no set order: none may
   * touch a row that another of them inserts or changes.
   */
  together(statements: readonly Statement[]): Promise<number[]>;
  /** Statements without parameters, separated by `;`, run in order; stops at the first that fails. */
  script(text: string): Promise<void>;
}

/** The manager's Sql, as its store runs statements (sqlite/, postgres/). */
export function sqlOf(manager: EntityManager): Sql {
  // The Sql itself, unless the SQL snapshots' recorder is on (statement-recorder.ts).
  return attributedSql(storeOf(manager.connection.options).sqlOf(manager));
}
