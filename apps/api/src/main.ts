import { Logger } from '@nestjs/common';
import { createApi } from './bootstrap';
import { validateApiConfig } from './config/api-config';
import { stopOnSignals } from './drain/stop-on-signals';

async function main(): Promise<void> {
  const config = validateApiConfig(process.env);
  const app = await createApi(config);
  stopOnSignals(app, config.DRAIN_TIMEOUT_MS);
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number } | null;
  // Tests and scripts read this line to learn the ephemeral port.
  Logger.log(`listening on port ${address?.port ?? config.PORT}`, 'API');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'API');
  process.exit(1);
});
