import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiConfig, merchantHoldCap } from '../config/api-config';

/**
 * Who holds this process's leases (deliveries, print callbacks, destination slots, maintenance
 * jobs), and how many of a merchant's claims may hold: its replica (REPLICA_ID) and an instance made at
 * process start, so a process that starts again is a new owner and its predecessor's writes are
 * fenced off. A process that starts under a REPLICA_ID takes its predecessor's leases at once.
 */
@Injectable()
export class DeliveryOwner {
  /** Every owner of this replica starts with it. */
  readonly replica: string;
  readonly id: string;
  readonly leaseMs: number;
  /**
   * How long past its due attempt a delivery that was never leased waits before this process
   * claims it. Such a delivery was written by a process of the version before leases, which
   * attempts it unleased; alive, that process would have made and recorded the attempt by then.
   */
  readonly unleasedAfterMs: number;
  /**
   * A merchant's pending deliveries, and apart its print callbacks, held by every process
   * together, that claims top up to and no further (LeasedTable.shareCap).
   */
  readonly merchantCap: number;

  constructor(config: ApiConfig) {
    // 12 hex digits after at most 115 characters: the lease_owner column holds 128.
    this.replica = `${config.REPLICA_ID.slice(0, 114)}/`;
    this.id = `${this.replica}${randomBytes(6).toString('hex')}`;
    this.leaseMs = config.DELIVERY_LEASE_MS;
    this.unleasedAfterMs = config.DELIVERY_LEASE_MS + config.WEBHOOK_TIMEOUT_MS;
    this.merchantCap = merchantHoldCap(config);
  }
}
