import { Controller, Delete, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { newWebhookSecret } from '@tps/delivery';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { WebhookSecretRepository } from '../webhooks/webhook-secret.repository';

class WebhookSecretAnswer {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

/** The merchant's Standard Webhooks signing secret (contract §6, §11). */
@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/webhook-secret')
export class WebhookSecretController {
  constructor(private readonly secrets: WebhookSecretRepository) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make (or rotate) the whsec_ secret that signs every later webhook attempt',
    description:
      'A new `whsec_` + base64 of 32 random bytes each call. The secret in force when an attempt starts signs it with the Standard Webhooks headers.',
  })
  @ApiOkResponse({ type: WebhookSecretAnswer, description: 'the new secret' })
  async rotate(@CurrentMerchant() merchant: MerchantEntity): Promise<WebhookSecretAnswer> {
    const secret = newWebhookSecret();
    await this.secrets.set(merchant.merchantId, secret);
    return { secret };
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove the secret: later webhook attempts go unsigned',
    description: 'Webhooks keep being delivered, without the Standard Webhooks headers.',
  })
  @ApiNoContentResponse({ description: 'removed (or there was none)' })
  async remove(@CurrentMerchant() merchant: MerchantEntity): Promise<void> {
    await this.secrets.set(merchant.merchantId, null);
  }
}
