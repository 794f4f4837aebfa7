import type { DataSource } from 'typeorm';
import type { AdmissionExchange, BucketCount } from '../shared-window-limiter';

/** Adds this replica's new counts (`$2`…`$4`: keys, buckets, counts) for the scope `$1`. */
const ADD = `INSERT INTO rate_limit_counts (scope, rate_key, replica, bucket, admitted)
  SELECT $1, k, $5, b, n FROM unnest($2::varchar[], $3::bigint[], $4::bigint[]) AS t(k, b, n)
  ON CONFLICT (scope, rate_key, replica, bucket)
  DO UPDATE SET admitted = rate_limit_counts.admitted + EXCLUDED.admitted`;
/** Any replica's aged rows, a gone replica's included; a row another exchange deleted first is skipped. */
const AGE = 'DELETE FROM rate_limit_counts WHERE scope = $1 AND bucket < $6';
/** The other replicas' counts in the window (read from the snapshot before this statement's own writes). */
const READ = `SELECT rate_key, SUM(admitted) AS admitted FROM rate_limit_counts
  WHERE scope = $1 AND replica <> $5 AND bucket >= $6 GROUP BY rate_key`;

/**
 * The replicas' admissions of one limit (`scope`) in PostgreSQL's rate_limit_counts, each exchange
 * one statement: this replica's counts added, the others' read, and (once per bucket, when the
 * window has moved on) the aged rows removed.
 */
export class PostgresAdmissionExchange implements AdmissionExchange {
  /** The window's first bucket at this replica's last removal of aged rows. */
  private agedBefore = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly dataSource: DataSource,
    private readonly scope: string,
  ) {}

  async exchange(replica: string, added: BucketCount[], fromBucket: number): Promise<Map<string, number>> {
    // Counts of buckets already out of the window no longer count anywhere.
    const counted = added.filter((count) => count.bucket >= fromBucket);
    const age = fromBucket > this.agedBefore;
    const sql = `WITH added AS (${ADD})${age ? `, aged AS (${AGE})` : ''} ${READ}`;
    const rows = await this.dataSource.query<Array<{ rate_key: string; admitted: string | number }>>(sql, [
      this.scope,
      counted.map((count) => count.key),
      counted.map((count) => count.bucket),
      counted.map((count) => count.admitted),
      replica,
      fromBucket,
    ]);
    if (age) this.agedBefore = fromBucket;
    return new Map(rows.map((row) => [row.rate_key, Number(row.admitted)]));
  }
}
