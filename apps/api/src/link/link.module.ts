import { Global, Module } from '@nestjs/common';
import { ApiConfig } from '../config/api-config';
import { PrintJobsModule } from '../print-jobs/print-jobs.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { LinkHandBack } from './link-hand-back';
import { LinkMetrics } from './link-metrics';
import { LinkServer } from './link-server';
import { RoutedRequestDesk } from './routed-request-desk';
import { ShareRegistry } from './share-registry';
import { TerminalLinks } from './terminal-links';
import { UplinkRebalance } from './uplink-rebalance';

/** A simulator that answers no ping for this many heartbeat intervals is gone. */
const HEARTBEATS_MISSED = 3;

@Global()
@Module({
  imports: [TransactionsModule, PrintJobsModule],
  providers: [
    TerminalLinks,
    LinkServer,
    LinkMetrics,
    RoutedRequestDesk,
    LinkHandBack,
    UplinkRebalance,
    {
      provide: ShareRegistry,
      useFactory: (config: ApiConfig) =>
        new ShareRegistry({ now: () => Date.now(), lapseMs: HEARTBEATS_MISSED * config.LINK_HEARTBEAT_MS }),
      inject: [ApiConfig],
    },
  ],
  exports: [TerminalLinks, ShareRegistry, LinkHandBack],
})
export class LinkModule {}
