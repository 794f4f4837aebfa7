import type { QueryRunner } from 'typeorm';

/** Column types whose name differs between the two stores; every other type is spelled alike. */
export interface ColumnTypes {
  /** A whole number up to 2^63: amounts reach 9,999,999,999 (SQLite's `integer` is 64-bit already). */
  integer: 'integer' | 'bigint';
  /** A point in time (PostgreSQL has no `datetime`; `timestamptz` keeps it in UTC). */
  time: 'datetime' | 'timestamptz';
}

export function columnTypes(queryRunner: QueryRunner): ColumnTypes {
  return queryRunner.connection.driver.options.type === 'sqlite'
    ? { integer: 'integer', time: 'datetime' }
    : { integer: 'bigint', time: 'timestamptz' };
}
