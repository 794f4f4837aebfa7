import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApiMetrics } from './api-metrics';
import { DatabaseMetrics } from './database-metrics';
import { MetricsServer } from './metrics-server';
import { ServedRoutes } from './served-routes';

/** The service's metrics, in every profile; served only when METRICS_PORT or METRICS_TOKEN is set. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ApiMetrics, DatabaseMetrics, MetricsServer, ServedRoutes],
  exports: [ApiMetrics, DatabaseMetrics],
})
export class MetricsModule {}
