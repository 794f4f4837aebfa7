import { Logger } from '@nestjs/common';
import {
  DEFAULT_LOG_SETTINGS,
  PinoNestLogger,
  Tracing,
  createLogRoot,
  logSettingsFrom,
} from '@tps/observability';
import { createApi } from './bootstrap';
import { validateApiConfig } from './config/api-config';
import { stopOnSignals } from './drain/stop-on-signals';
import { ServiceListening } from './http/service-listening';

/** JSON lines from the first one: a refused configuration is reported as one too. */
let logger = new PinoNestLogger(createLogRoot(DEFAULT_LOG_SETTINGS, { app: 'api' }));

async function main(): Promise<void> {
  const settings = logSettingsFrom(process.env);
  const config = validateApiConfig(process.env);
  logger = new PinoNestLogger(createLogRoot(settings, { app: 'api', replica: config.REPLICA_ID }));
  Logger.overrideLogger(logger);
  // Exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (contract, "Traces").
  Tracing.start('tps-api', process.env);
  const app = await createApi(config, { logger });
  stopOnSignals(app, { timeoutMs: config.DRAIN_TIMEOUT_MS, quietMs: config.DRAIN_QUIET_MS });
  await app.listen(config.PORT, config.HOST);
  app.get(ServiceListening).listened();
  const address = app.getHttpServer().address() as { port: number } | null;
  // Tests and scripts read this line to learn the ephemeral port.
  Logger.log(`listening on port ${address?.port ?? config.PORT}`, 'API');
}

main().catch((error: unknown) => {
  logger.error(error instanceof Error ? error.message : String(error), undefined, 'API');
  process.exit(1);
});
