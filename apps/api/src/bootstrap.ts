import { Capacity } from './caps/capacity';
import { capSockets } from './caps/cap-sockets';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { installSecretKeyring } from '@tps/database';
import {
  answerUnparsableRequests,
  assignRequestId,
  contractValidationPipe,
  onAnswered,
  useContractJsonBody,
} from '@tps/http';
import { Tracing, traceRequests } from '@tps/observability';
import { AppModule } from './app.module';
import type { ApiConfig } from './config/api-config';
import { OpenConnections } from './drain/open-connections';
import { RequestDrain } from './drain/request-drain';
import { ApiMetrics } from './metrics/api-metrics';
import { serveMetrics } from './metrics/metrics-endpoint';
import { requestMetrics } from './metrics/request-metrics';
import { RequestLog } from './request-log/request-log';
import { requestLogging } from './request-log/request-logging';
import { signDocsRequest } from './openapi/docs-request-signer';
import { advertiseIdleTime, holdIdleConnections } from './http/idle-connections';
import { closeFailedUpgrades } from './http/upgrade-socket-errors';
import { SANDBOX_CORS } from './http/sandbox-cors';
import { securityHeaders } from './http/security-headers';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { DOCUMENT_ROUTES } from './openapi/document-routes';
import { chooseSecretKeyring } from './secrets/secrets-keyring';

export async function createApi(
  config: ApiConfig,
  options: { logger?: LoggerService | false } = {},
): Promise<NestExpressApplication> {
  // Before the store opens: the seed and every read of a merchant seal and open through it.
  const secrets = chooseSecretKeyring(config);
  installSecretKeyring(secrets.keyring);
  if (options.logger !== false) Logger.log(`secrets at rest: ${secrets.source}`, 'Secrets');
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forConfig(config), {
    // JSON is the only body the contract takes: no form parser, so a form body is a 415, not a
    // request that half works. The JSON parser keeps the raw bytes for the signature itself.
    bodyParser: false,
    logger: options.logger ?? ['log', 'warn', 'error'],
    // By the time the server closes, a drain has answered every request and ended every kept-alive
    // connection whose client let go of it; what is left (the console's live stream) closes now.
    forceCloseConnections: true,
  });
  holdIdleConnections(app.getHttpServer());
  answerUnparsableRequests(app.getHttpServer());
  closeFailedUpgrades(app.getHttpServer());
  capSockets(app.getHttpServer(), app.get(Capacity));
  // What a stopping replica ends once their clients let go of them (drain/stop-on-signals.ts).
  app.get(OpenConnections).watch(app.getHttpServer());
  // Before anything that may answer: a preflight, a refused body and an error carry them too.
  app.use(advertiseIdleTime);
  app.use(assignRequestId);
  app.use(traceRequests(Tracing.get()));
  app.use(onAnswered(requestLogging(config.PROFILE === 'sandbox' ? app.get(RequestLog) : undefined)));
  if (config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined) {
    const metrics = app.get(ApiMetrics);
    const token = config.METRICS_TOKEN;
    // On the API's own port only behind its token; scrapes are not counted as requests, and are
    // answered while the replica drains (before the drain's refusal).
    if (config.METRICS_PORT === undefined && token !== undefined) {
      app.use((request: Request, response: Response, next: NextFunction) => {
        if (request.method !== 'GET' || request.path !== '/metrics') return next();
        void serveMetrics(metrics, token, request, response);
      });
    }
    // Before the drain, so that its refusals are counted too.
    app.use(requestMetrics(metrics));
  }
  // Then the count of what is in flight, which a stopping replica waits for (main.ts).
  app.use(app.get(RequestDrain).middleware);
  app.use(securityHeaders(config.PROFILE));
  // Before the body parser, so that a preflight is answered before any check of a body it does not have.
  if (config.PROFILE === 'sandbox') app.enableCors(SANDBOX_CORS);
  useContractJsonBody(app);
  app.useGlobalPipes(contractValidationPipe());
  app.disable('x-powered-by');
  // The client address (account creation's limit, a cardholder setting's `setFrom`): behind the
  // configured proxies only is X-Forwarded-For read, from the right, up to the first hop not trusted.
  if (config.TRUSTED_PROXIES !== undefined) {
    app.set(
      'trust proxy',
      config.TRUSTED_PROXIES.split(',').map((entry) => entry.trim()),
    );
  }
  // Express hashes every answer body for an ETag; no route of the contract is cached by one.
  app.set('etag', false);

  // Built on the first request for it, not at start-up: about a tenth of a second off the start.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    // "Try it out" signs each request in the browser from the merchant id and secret typed in,
    // with the time of sending, and gives the example's client_transaction_id a fresh value.
    swaggerOptions: { requestInterceptor: signDocsRequest },
  });
  if (config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined)
    app.get(ApiMetrics).routesServed(DOCUMENT_ROUTES);
  return app;
}
