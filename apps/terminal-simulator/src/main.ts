import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { useContractJsonBody } from '@tps/http';
import { SimulatorModule } from './app.module';
import { validateSimulatorConfig } from './config/simulator-config';

async function main(): Promise<void> {
  const config = validateSimulatorConfig(process.env);
  const app = await NestFactory.create<NestExpressApplication>(SimulatorModule.forConfig(config), {
    logger: ['log', 'warn', 'error'],
    // The same JSON-only parser as the API's, with the same limits (contract §4).
    bodyParser: false,
  });
  useContractJsonBody(app);
  app.disable('x-powered-by');
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number } | null;
  // Tests and scripts read this line to learn the ephemeral port.
  Logger.log(`listening on port ${address?.port ?? config.PORT}`, 'TerminalSimulator');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'TerminalSimulator');
  process.exit(1);
});
