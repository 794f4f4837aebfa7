import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { ApiMetrics } from './api-metrics';
import { answerError, serveMetrics } from './metrics-endpoint';

/** `GET /metrics` on a listener of its own (METRICS_PORT), apart from the API's port. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    private readonly config: ApiConfig,
    private readonly metrics: ApiMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.METRICS_PORT;
    if (port === undefined) return;
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method === 'GET' && path === '/metrics') {
        void serveMetrics(this.metrics, this.config.METRICS_TOKEN, request, response);
        return;
      }
      // Every error answered has the contract's body, on this listener too (contract §4).
      answerError(response, new ContractError('NF-000', 'no such route: this port serves GET /metrics only'));
    });
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(port, this.config.HOST, () => listening());
    });
    this.server = server;
    // Tests and scrapers configured with port 0 learn the port from this line.
    this.logger.log(`metrics on port ${(server.address() as AddressInfo).port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  }
}
