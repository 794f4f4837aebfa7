import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller';
import { WebhookSecretController } from './webhook-secret.controller';

/** Sandbox control of webhook deliveries: the delivery log, redelivery, the signing secret. */
@Module({
  controllers: [DeliveriesController, WebhookSecretController],
})
export class DeliveriesModule {}
