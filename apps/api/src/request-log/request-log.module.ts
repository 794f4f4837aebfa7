import { Logger, Module } from '@nestjs/common';
import { ReplicaRouting } from '../routing/replica-routing';
import { MerchantRequestLog } from './merchant-request-log';
import { PostgresRequestLog } from './postgres/postgres-request-log';
import { RequestLog } from './request-log';
import { RequestLogController } from './request-log.controller';
import { StoredRequestLog } from './stored-request-log';

/**
 * A merchant's own request log (sandbox profile only, docs/contract.md "Request ids"): in memory
 * on one process, in the database replicas share.
 */
@Module({
  controllers: [RequestLogController],
  providers: [
    {
      provide: RequestLog,
      useFactory: (replicas: ReplicaRouting): RequestLog => {
        const cluster = replicas.cluster;
        if (cluster === undefined) return new MerchantRequestLog();
        const logger = new Logger('RequestLog');
        // Replicas share a PostgreSQL database (ReplicaRouting): the log is kept there.
        return new StoredRequestLog(new PostgresRequestLog(cluster.dataSource), (error) =>
          logger.warn(`request log: ${String(error)}`),
        );
      },
      inject: [ReplicaRouting],
    },
  ],
  exports: [RequestLog],
})
export class RequestLogModule {}
