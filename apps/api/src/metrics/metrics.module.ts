import { Global, Module } from '@nestjs/common';
import { ApiMetrics } from './api-metrics';
import { MetricsServer } from './metrics-server';

/** The service's metrics, in every profile; served only when METRICS_PORT or METRICS_TOKEN is set. */
@Global()
@Module({
  providers: [ApiMetrics, MetricsServer],
  exports: [ApiMetrics],
})
export class MetricsModule {}
