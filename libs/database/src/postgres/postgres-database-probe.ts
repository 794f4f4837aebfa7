import type { DataSource } from 'typeorm';
import type { DatabaseProbe } from '../ports/database-probe';

/** A round trip through the pool: waiting for a free connection counts, as it does for a request. */
export class PostgresDatabaseProbe implements DatabaseProbe {
  constructor(private readonly reads: DataSource) {}

  async ping(): Promise<void> {
    await this.reads.query('SELECT 1');
  }
}
