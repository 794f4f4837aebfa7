import 'reflect-metadata';
import { hostname } from 'node:os';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { onAnswered, useContractJsonBody } from '@tps/http';
import {
  DEFAULT_LOG_SETTINGS,
  PinoNestLogger,
  Tracing,
  createLogRoot,
  logSettingsFrom,
  requestSpanOf,
  traceFieldsOfSpan,
  traceRequests,
} from '@tps/observability';
import { SimulatorModule } from './app.module';
import { validateSimulatorConfig } from './config/simulator-config';

/** JSON lines from the first one: a refused configuration is reported as one too. */
let logger = new PinoNestLogger(createLogRoot(DEFAULT_LOG_SETTINGS, { app: 'simulator' }));

async function main(): Promise<void> {
  const settings = logSettingsFrom(process.env);
  const config = validateSimulatorConfig(process.env);
  logger = new PinoNestLogger(
    createLogRoot(settings, {
      app: 'simulator',
      replica: `${hostname()}-${process.pid}`,
      share: config.FLEET_SHARE,
    }),
  );
  Logger.overrideLogger(logger);
  // Exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (contract, "Traces").
  Tracing.start('tps-simulator', process.env);
  const app = await NestFactory.create<NestExpressApplication>(SimulatorModule.forConfig(config), {
    logger,
    // The same JSON-only parser as the API's, with the same limits (contract §4).
    bodyParser: false,
  });
  const http = new Logger('Http');
  // Each request is a span, continuing the caller's `traceparent`; its line names it, as the
  // service's lines do (contract, "Traces").
  app.use(traceRequests(Tracing.get()));
  app.use(
    onAnswered(({ method, route = '(unrouted)', status, durationMs }, request) => {
      const span = requestSpanOf(request);
      http.log({
        msg: `${method} ${route} ${status} ${durationMs} ms`,
        method,
        route,
        status,
        duration_ms: durationMs,
        ...(span === undefined ? {} : traceFieldsOfSpan(span)),
      });
    }),
  );
  useContractJsonBody(app);
  app.disable('x-powered-by');
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number } | null;
  // Tests and scripts read this line to learn the ephemeral port.
  Logger.log(`listening on port ${address?.port ?? config.PORT}`, 'TerminalSimulator');
}

main().catch((error: unknown) => {
  logger.error(error instanceof Error ? error.message : String(error), undefined, 'TerminalSimulator');
  process.exit(1);
});
