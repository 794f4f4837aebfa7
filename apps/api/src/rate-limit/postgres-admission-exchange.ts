import type { DataSource } from 'typeorm';
import type { AdmissionExchange, BucketCount } from './shared-window-limiter';

/** The replicas' admissions of one limit (`scope`) in PostgreSQL's rate_limit_counts. */
export class PostgresAdmissionExchange implements AdmissionExchange {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scope: string,
  ) {}

  async exchange(replica: string, added: BucketCount[], fromBucket: number): Promise<Map<string, number>> {
    if (added.length > 0) {
      await this.dataSource.query(
        `INSERT INTO rate_limit_counts (scope, rate_key, replica, bucket, admitted)
         SELECT $1, * FROM unnest($2::varchar[], $3::varchar[], $4::bigint[], $5::bigint[])
         ON CONFLICT (scope, rate_key, replica, bucket)
         DO UPDATE SET admitted = rate_limit_counts.admitted + EXCLUDED.admitted`,
        [
          this.scope,
          added.map((count) => count.key),
          added.map(() => replica),
          added.map((count) => count.bucket),
          added.map((count) => count.admitted),
        ],
      );
    }
    // Any replica's aged rows, a gone replica's included; a row another exchange deleted first is skipped.
    await this.dataSource.query('DELETE FROM rate_limit_counts WHERE scope = $1 AND bucket < $2', [
      this.scope,
      fromBucket,
    ]);
    const rows = await this.dataSource.query<Array<{ rate_key: string; admitted: string | number }>>(
      `SELECT rate_key, SUM(admitted) AS admitted FROM rate_limit_counts
       WHERE scope = $1 AND replica <> $2 AND bucket >= $3 GROUP BY rate_key`,
      [this.scope, replica, fromBucket],
    );
    return new Map(rows.map((row) => [row.rate_key, Number(row.admitted)]));
  }
}
