import { Injectable } from '@nestjs/common';
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
  leaseUntil: 'expires_at_ms',
  leaseTime: 'ms',
  order: 'name',
};

@Injectable()
export class MaintenanceLease {
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
}
