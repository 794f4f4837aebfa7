import { Global, Module } from '@nestjs/common';
import { ListenForwarder } from '../listen/listen-forwarder';
import { ListenerPresence } from '../listen/listener-presence';
import { DeliveryBodies } from './delivery-bodies';
import { DELIVERY_BODY_RULE } from './delivery-body-rule';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryOwner } from './delivery-owner';
import { DeliveryRepository } from './delivery.repository';
import { WebhookSecretRepository } from './webhook-secret.repository';

/**
 * The webhook outbox and its dispatcher, in every profile; attempts for a merchant with a `listen`
 * connection open go through it (contract §6.1).
 */
@Global()
@Module({
  providers: [
    DeliveryOwner,
    DeliveryBodies,
    { provide: DELIVERY_BODY_RULE, useExisting: DeliveryBodies },
    DeliveryRepository,
    DeliveryDispatcher,
    WebhookSecretRepository,
    ListenerPresence,
    ListenForwarder,
  ],
  exports: [DeliveryOwner, DeliveryRepository, WebhookSecretRepository, ListenerPresence, ListenForwarder],
})
export class WebhooksModule {}
