/**
 * What the replicas on a shared database say of delivery bodies (docs/contract.md, "Rolling
 * deploys: two versions side by side"): a replica that reads bodies from events says so under its
 * epoch. Replicas share PostgreSQL alone, so PostgreSQL is this port's only store.
 */
export interface ReplicaBodies {
  /** Says, on this replica's row under its epoch, that it reads bodies from events. */
  advertise(): Promise<void>;
  /** Whether a replica heard from within `aliveMs` does not say so. */
  olderAlive(aliveMs: number): Promise<boolean>;
  /** Stores its event's envelope as the payload of each pending delivery stored without one; resolves how many. */
  fillPending(): Promise<number>;
}
