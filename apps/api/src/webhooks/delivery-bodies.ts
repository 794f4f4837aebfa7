import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { ReplicaRouting } from '../routing/replica-routing';
import type { ThisReplica } from '../routing/this-replica';
import type { DeliveryBodyRule } from './delivery-body-rule';
import { PostgresReplicaBodies } from './postgres/postgres-replica-bodies';
import type { ReplicaBodies } from './replica-bodies';

/**
 * A delivery's body is its event's envelope, byte for byte, stored once in `transaction_events`
 * (docs/contract.md, "Rolling deploys"). A replica of the version before reads only the delivery's
 * `payload`, so a new delivery leaves `payload` empty only while no such replica is alive. On one
 * process (SQLite) that is at once. On a shared PostgreSQL database each replica says on its
 * `api_replicas` row, under its epoch, that it reads bodies from events, and looks at every
 * heartbeat whether all live replicas say so; until it has seen that, it writes the payload too.
 * Once one that does not shows up (a rollback), it writes the payload again and fills in the
 * pending deliveries stored without one, which that replica may take over.
 */
@Injectable()
export class DeliveryBodies implements DeliveryBodyRule, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private everywhere: boolean;
  private advertised = false;
  /** Deliveries may have been stored without a payload since the last fill. */
  private fillOwed = false;
  private task: PeriodicTask | undefined;

  constructor(
    private readonly config: ApiConfig,
    private readonly routing: ReplicaRouting,
    private readonly tasks: BackgroundTasks,
  ) {
    this.everywhere = routing.cluster === undefined;
  }

  get fromEvents(): boolean {
    return this.everywhere;
  }

  async onApplicationBootstrap(): Promise<void> {
    const cluster = this.routing.cluster;
    if (cluster === undefined) return;
    // Replicas share a PostgreSQL database (ReplicaRouting): what they say is stored there.
    const replicas = new PostgresReplicaBodies(cluster.dataSource, cluster.replica);
    await this.look(replicas, cluster.replica);
    this.task = this.tasks
      .every({
        name: 'delivery-bodies',
        everyMs: this.config.REPLICA_HEARTBEAT_MS,
        run: () => this.look(replicas, cluster.replica),
      })
      .start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task?.stop();
  }

  private async look(replicas: ReplicaBodies, replica: ThisReplica): Promise<void> {
    try {
      if (!this.advertised) {
        await replicas.advertise();
        this.advertised = true;
      }
      // The window is the lease's, not only the heartbeat's lapse: a replica of the version before
      // cut off from the database for a while comes back as it was.
      const aliveMs = Math.max(replica.lapseMs, this.config.DELIVERY_LEASE_MS);
      if (!(await replicas.olderAlive(aliveMs))) {
        this.everywhere = true;
        return;
      }
      // Payloads from now on, then the pending deliveries written without: in this order, so
      // none is missed.
      this.stopLeavingBodies();
      if (this.fillOwed) {
        const filled = await replicas.fillPending();
        this.fillOwed = false;
        this.logger.log(
          `a replica that reads only delivery payloads is alive: payloads written again, ${filled} pending ones filled in`,
        );
      }
    } catch (error) {
      // The store away: payloads are written until a look succeeds again.
      this.stopLeavingBodies();
      this.logger.warn(`looking at the replicas' delivery bodies: ${String(error)}`);
    }
  }

  private stopLeavingBodies(): void {
    if (this.everywhere) this.fillOwed = true;
    this.everywhere = false;
  }
}
