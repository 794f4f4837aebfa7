import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LeasedQueue, SerialWriter, type LeasedTable } from '@tps/database';
import { DeliveryOwner } from '../webhooks/delivery-owner';

/**
 * The rows of `maintenance_leases`, one per background job, leased like deliveries: of several
 * replicas on one database, the one holding a job's lease does it, and another takes it over once
 * it lapses (its holder stopped renewing). Lease ends are epoch ms, and a row nobody held yet has
 * holder '' and 0, as the version before wrote them (contract, "Rolling deploys").
 */
const LEASED_JOBS: LeasedTable = {
  table: 'maintenance_leases',
  id: 'name',
  owner: 'holder',
  nobody: "''",
  leaseUntil: 'expires_at_ms',
  leaseTime: 'ms',
  order: 'name',
};

/**
 * A process stopping gives back the jobs it holds, once its tasks have stopped (they stop as their
 * modules are destroyed, before this): another replica, or this one started again, takes each at
 * its next turn instead of once the lease has lapsed.
 */
@Injectable()
export class MaintenanceLease implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Maintenance');
  private readonly leases: LeasedQueue;

  constructor(owner: DeliveryOwner, writer: SerialWriter, reads: DataSource) {
    this.leases = new LeasedQueue(LEASED_JOBS, writer, reads, owner);
  }

  /** True when this process holds `name` for `forMs` from now (renewed, or claimed). */
  async claim(name: string, forMs: number): Promise<boolean> {
    const now = Date.now();
    if ((await this.leases.renew(now + forMs, [name])).length > 0) return true;
    const job = { where: '{row}.name = ?', params: [name] };
    return (await this.leases.claim(now, now + forMs, 1, 'name', job)).length > 0;
  }

  /** Gives back every job this process holds, for any process to take at once. */
  async beforeApplicationShutdown(): Promise<void> {
    try {
      await this.leases.release();
    } catch (error) {
      // The database is unreachable: the leases lapse by themselves.
      this.logger.error(`giving back maintenance leases: ${String(error)}`);
    }
  }
}
