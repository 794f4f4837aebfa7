import type { DataSource } from 'typeorm';
import type { DatabaseProbe } from '../ports/database-probe';

/**
 * Both stores (PostgreSQL takes it as it is). On PostgreSQL the round trip goes through the pool:
 * waiting for a free connection counts, as it does for a request.
 */
export class SqliteDatabaseProbe implements DatabaseProbe {
  constructor(private readonly reads: DataSource) {}

  async ping(): Promise<void> {
    await this.reads.query('SELECT 1');
  }
}
