import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SerialWriter, sqlOf } from '@tps/database';
import { ApiConfig } from '../config/api-config';

/**
 * A claimed row of `maintenance_leases`: of several replicas on one database, the one holding the
 * lease does the work, and another takes it over once it lapses (its holder stopped renewing).
 */
@Injectable()
export class MaintenanceLease {
  private readonly holder: string;

  constructor(
    config: ApiConfig,
    private readonly writer: SerialWriter,
  ) {
    this.holder = `${config.REPLICA_ID}/${randomBytes(4).toString('hex')}`;
  }

  /** True when this process holds `name` for `forMs` from now (claimed, or renewed). */
  claim(name: string, forMs: number): Promise<boolean> {
    const now = Date.now();
    return this.writer.write(
      async (manager) =>
        (await sqlOf(manager).run(
          'UPDATE maintenance_leases SET holder = ?, expires_at_ms = ? WHERE name = ? AND (holder = ? OR expires_at_ms < ?)',
          [this.holder, now + forMs, name, this.holder, now],
        )) === 1,
    );
  }
}
