import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { contractValidationPipe, refuseNonJsonBody } from '@tps/http';
import { AppModule } from './app.module';
import type { ApiConfig } from './config/api-config';

export const BODY_LIMIT = '1mb';

export async function createApi(config: ApiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forConfig(config), {
    rawBody: true,
    // JSON is the only body the contract takes: no form parser, so a form body is a 415, not a
    // request that half works.
    bodyParser: false,
    logger: ['log', 'warn', 'error'],
    // A stop must not wait on keep-alive clients or terminal links: the shutdown hooks have
    // already settled the outbox by the time the server closes.
    forceCloseConnections: true,
  });
  app.use(refuseNonJsonBody);
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.useGlobalPipes(contractValidationPipe());
  app.disable('x-powered-by');
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Terminal Payment Service')
      .setDescription('Card-present payments through a payment terminal (sandbox reference implementation)')
      .setVersion('v1')
      .addBasicAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json' });
  return app;
}
