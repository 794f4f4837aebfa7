import type { DataSource } from 'typeorm';
import type { DatabaseProbe } from '../ports/database-probe';

export class SqliteDatabaseProbe implements DatabaseProbe {
  constructor(private readonly reads: DataSource) {}

  async ping(): Promise<void> {
    await this.reads.query('SELECT 1');
  }
}
