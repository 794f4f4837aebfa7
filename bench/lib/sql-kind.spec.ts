import { isWrite, statementKind } from './sql-kind';

describe('statementKind', () => {
  it('names the table of a write', () => {
    expect(statementKind('INSERT INTO terminal_uplinks (serial_number) VALUES ($1)')).toBe(
      'INSERT terminal_uplinks',
    );
    expect(statementKind('  update "api_replicas" SET heartbeat_at = now()')).toBe('UPDATE api_replicas');
    expect(statementKind('DELETE FROM routed_requests WHERE id = $1')).toBe('DELETE routed_requests');
  });

  it('reads a write inside a WITH, and a WITH that only reads as a read', () => {
    expect(statementKind('WITH answered AS (DELETE FROM routed_requests WHERE id = $1) SELECT 1')).toBe(
      'DELETE routed_requests',
    );
    expect(statementKind('WITH s AS (SELECT 1) UPDATE t SET a = 1')).toBe('UPDATE t');
    expect(statementKind('WITH s AS (SELECT 1 FOR UPDATE SKIP LOCKED) SELECT * FROM s')).toBe('SELECT s');
  });

  it('takes a locking read for a read, and names other statements by their first keyword', () => {
    expect(statementKind('SELECT id FROM t WHERE a = 1 FOR UPDATE SKIP LOCKED')).toBe('SELECT t');
    expect(statementKind('SELECT "m"."id" FROM "merchants" "m" WHERE 1')).toBe('SELECT merchants');
    expect(statementKind('BEGIN')).toBe('BEGIN');
    expect(statementKind('select pg_notify($1, $2)')).toBe('SELECT');
  });

  it('tells writes from the rest', () => {
    expect(isWrite('UPDATE api_replicas')).toBe(true);
    expect(isWrite('SELECT')).toBe(false);
    expect(isWrite('COMMIT')).toBe(false);
  });
});
