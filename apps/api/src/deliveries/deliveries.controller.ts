import { Controller, Get, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ContractError } from '@tps/domain';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { DeliveryRepository, pendingOf } from '../webhooks/delivery.repository';
import { TakesNoBody } from '../http/takes-no-body';
import { DeliveriesQueryDto } from './deliveries-query.dto';
import { DeliveryList, DeliveryRecord, deliveryRecord } from './delivery-record';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log of the merchant's transaction webhooks, and redelivery (contract §11). */
@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/deliveries')
export class DeliveriesController {
  constructor(
    private readonly outbox: DeliveryRepository,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Every webhook delivery of a transaction, with every attempt',
    description:
      'In the order they were made, each attempt in order; a transaction of another merchant lists as empty.',
  })
  @ApiOkResponse({ type: DeliveryList, description: "the transaction's deliveries" })
  @ApiErrors('PAR-002')
  async list(
    @CurrentMerchant() merchant: MerchantEntity,
    @Query() query: DeliveriesQueryDto,
  ): Promise<DeliveryList> {
    const deliveries = await this.outbox.listForTransaction(merchant.merchantId, query.client_transaction_id);
    return { items: deliveries.map(deliveryRecord) };
  }

  @Post(':id/redeliver')
  @TakesNoBody()
  @ApiOperation({
    summary: "Send a delivery's event again: a fresh delivery, same event_id",
    description: 'Queued after the transaction\'s other deliveries, with a new `id` and `state: "pending"`.',
  })
  @ApiErrors('NF-004')
  @ApiCreatedResponse({ type: DeliveryRecord, description: 'the new delivery' })
  async redeliver(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('id') id: string,
  ): Promise<DeliveryRecord> {
    const delivery = UUID.test(id) ? await this.outbox.redeliver(merchant.merchantId, id, Date.now()) : null;
    // Another merchant's delivery is as unknown as one that never was.
    if (delivery === null) throw new ContractError('NF-004', `delivery ${id.slice(0, 40)} not found`);
    this.messages.publish('delivery.staged', pendingOf(delivery));
    return deliveryRecord({ delivery, attempts: [] });
  }
}
