import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryOwner } from './delivery-owner';
import { DeliveryEntity } from './delivery.entity';
import { DeliveryRepository } from './delivery.repository';
import { WebhookSecretRepository } from './webhook-secret.repository';

/** The webhook outbox and its dispatcher, in every profile. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([DeliveryEntity, DeliveryAttemptEntity])],
  providers: [DeliveryOwner, DeliveryRepository, DeliveryDispatcher, WebhookSecretRepository],
  exports: [DeliveryOwner, DeliveryRepository, WebhookSecretRepository],
})
export class WebhooksModule {}
