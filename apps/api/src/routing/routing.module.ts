import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiConfig } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from '../metrics/api-metrics';
import { LINK_ROUTING } from './link-routing';
import { ReplicaRouting } from './replica-routing';

/** How a request reaches a terminal's link on whichever replica holds it (contract, scale-out). */
@Global()
@Module({
  providers: [
    {
      provide: ReplicaRouting,
      // After the app's data source: its migrations made the tables a replica joins in, and
      // routing's own is opened from its options.
      useFactory: (config: ApiConfig, messages: ApiMessages, metrics: ApiMetrics, app: DataSource) =>
        ReplicaRouting.open(config, messages, metrics, app),
      inject: [ApiConfig, API_MESSAGES, ApiMetrics, DataSource],
    },
    {
      provide: LINK_ROUTING,
      useFactory: (replica: ReplicaRouting) => replica.routing,
      inject: [ReplicaRouting],
    },
  ],
  exports: [LINK_ROUTING, ReplicaRouting],
})
export class RoutingModule {}
