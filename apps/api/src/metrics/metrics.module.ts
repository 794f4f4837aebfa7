import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BackgroundTasks } from './background-tasks';
import { ApiMetrics } from './api-metrics';
import { DatabaseMetrics } from './database-metrics';
import { MetricsServer } from './metrics-server';
import { ServedRoutes } from './served-routes';

/** The service's metrics and the background tasks they count, in every profile; served only when METRICS_PORT or METRICS_TOKEN is set. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ApiMetrics, BackgroundTasks, DatabaseMetrics, MetricsServer, ServedRoutes],
  exports: [ApiMetrics, BackgroundTasks, DatabaseMetrics],
})
export class MetricsModule {}
