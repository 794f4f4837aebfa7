import { Logger, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { PeriodicTask } from '@tps/background';
import { PostgresMessagePort } from '@tps/messaging';
import { closeDataSource } from '@tps/database';
import { ApiConfig } from '../config/api-config';
import type { ApiMessages, ApiTopics } from '../messages/api-messages';
import type { ApiMetrics } from '../metrics/api-metrics';
import { sharedStore } from '../messages/messages.module';
import { LOCAL_ONLY, type LinkRouting } from './link-routing';
import { PostgresLeftBehindRequests } from './postgres/postgres-left-behind-requests';
import { PostgresLinkHolders } from './postgres/postgres-link-holders';
import { PostgresReplicaRows } from './postgres/postgres-replica-rows';
import { PostgresRoutingStore } from './postgres/postgres-routing-store';
import { openRoutingDataSource } from './postgres/routing-data-source';
import { RequestRouter, type RouterTimer } from './request-router';
import type { LeftBehindRequests } from './routing-ports';
import { StoredLinkRouting } from './stored-link-routing';
import { ThisReplica } from './this-replica';

/**
 * A routed request's waiter reads the store this often when no word came: only a lost word (a
 * failed NOTIFY; a lost listener reads at once) or a dead holder makes it wait that long.
 */
const ROUTER_POLL_MS = 1000;
/** Rows of replies taken from their word are removed together this often (one statement). */
const ROUTER_FORGET_MS = 1000;
/** Beyond the reply timeout, for the holder's round trips to store its reply. */
const ROUTER_GRACE_MS = 2000;

const REAL_TIMER: RouterTimer = {
  now: () => Date.now(),
  sleep: (ms, wake) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake(() => {
        clearTimeout(timer);
        resolve();
      });
    }),
};

/** On a shared store the port is PostgreSQL's (MessagesModule): the routing store's statements send its words. */
function postgresPort(messages: ApiMessages): PostgresMessagePort<ApiTopics> {
  if (messages instanceof PostgresMessagePort) return messages as PostgresMessagePort<ApiTopics>;
  throw new Error('replicas on a shared store tell each other through PostgreSQL');
}

/** What a replica on a shared database routes with; absent on one process. */
export interface ClusterParts {
  /** Routing's own data source (openRoutingDataSource), beside the app's. */
  dataSource: DataSource;
  replica: ThisReplica;
  store: PostgresRoutingStore;
  router: RequestRouter;
  leftBehind: LeftBehindRequests;
}

/**
 * This process as one replica among several on a shared PostgreSQL database (contract, scale-out),
 * or alone (SQLite): then it routes nothing and stores nothing.
 */
export class ReplicaRouting implements BeforeApplicationShutdown, OnApplicationShutdown {
  private constructor(
    readonly routing: LinkRouting,
    readonly cluster: ClusterParts | undefined,
    private readonly holderWrites: PeriodicTask[] = [],
  ) {}

  /** `app`: the app's data source, migrated; routing's own is opened from its options. */
  static async open(
    config: ApiConfig,
    messages: ApiMessages,
    metrics: ApiMetrics,
    app: DataSource,
  ): Promise<ReplicaRouting> {
    if (!sharedStore(config)) return new ReplicaRouting(LOCAL_ONLY, undefined);
    const port = postgresPort(messages);
    const logger = new Logger('Routing');
    const onError = (error: unknown): void => logger.warn(String(error));
    const dataSource = await openRoutingDataSource(app, onError);
    try {
      return await ReplicaRouting.join(dataSource, config, messages, metrics, port, logger, onError);
    } catch (error) {
      await closeDataSource(dataSource);
      throw error;
    }
  }

  private static async join(
    dataSource: DataSource,
    config: ApiConfig,
    messages: ApiMessages,
    metrics: ApiMetrics,
    port: PostgresMessagePort<ApiTopics>,
    logger: Logger,
    onError: (error: unknown) => void,
  ): Promise<ReplicaRouting> {
    metrics.backgroundTaskKnown('replica-heartbeat');
    const replica = new ThisReplica(
      new PostgresReplicaRows(dataSource),
      config.REPLICA_ID,
      config.REPLICA_HEARTBEAT_MS,
      (error) => {
        onError(error);
        metrics.backgroundTaskFailed('replica-heartbeat');
      },
    );
    await replica.join();
    const store = new PostgresRoutingStore(dataSource, replica, (topic) => port.wordStart(topic));
    const router = new RequestRouter(
      store,
      {
        onAnswered: (handler) =>
          messages.subscribe('route.answered', ({ id, reply }) => handler(id, reply), 'cluster'),
        onGap: (handler) => messages.onGap(handler),
      },
      REAL_TIMER,
      { pollMs: ROUTER_POLL_MS, graceMs: ROUTER_GRACE_MS, forgetMs: ROUTER_FORGET_MS },
      onError,
      (link) => metrics.requestRouted(link),
    );
    logger.log(`replica ${replica.id}, epoch ${replica.epoch}`);
    const routing = new StoredLinkRouting(
      new PostgresLinkHolders(dataSource, replica),
      replica,
      router,
      onError,
      (serial, notice) => messages.publish('route.notice', { serial, notice }),
    );
    const holderWrites = [
      // Link changes whose write failed (the database was away) are written once it is back.
      new PeriodicTask({
        name: 'link-repair',
        everyMs: config.REPLICA_HEARTBEAT_MS,
        run: () => routing.repair(),
      }),
      new PeriodicTask({
        name: 'link-rewrite',
        everyMs: config.LINK_HOLDERS_REWRITE_MS,
        jitter: 0.2,
        run: () => routing.rewriteAll(),
      }),
    ].map((task) => task.start());
    const leftBehind = new PostgresLeftBehindRequests(dataSource);
    return new ReplicaRouting(routing, { dataSource, replica, store, router, leftBehind }, holderWrites);
  }

  /**
   * Once the links have closed (onModuleDestroy): their holders' rows are written, then this
   * replica leaves the cluster. Its data source closes after, in onApplicationShutdown, when
   * nothing uses it any more.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.holderWrites.map((task) => task.stop()));
    if (this.cluster === undefined) return;
    await this.routing.flush();
    await this.cluster.router.stop();
    await this.cluster.replica.leave().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.cluster !== undefined) await closeDataSource(this.cluster.dataSource).catch(() => undefined);
  }
}
