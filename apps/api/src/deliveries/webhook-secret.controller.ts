import { Body, Controller, Delete, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { newWebhookSecret } from '@tps/delivery';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { WebhookSecretRepository } from '../webhooks/webhook-secret.repository';
import { TakesNoBody } from '../http/takes-no-body';
import { DEFAULT_OVERLAP_SECONDS, RotateWebhookSecretDto } from './rotate-webhook-secret.dto';

class WebhookSecretAnswer {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

class RotatedWebhookSecretAnswer extends WebhookSecretAnswer {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-27T09:00:00.000Z',
    description:
      'until when the replaced secret also signs (ISO 8601, real time); null when there was none, or overlap_seconds was 0',
  })
  previous_valid_until!: string | null;
}

/** The merchant's Standard Webhooks signing secret (contract §6, §11; rotation: Part II). */
@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/webhook-secret')
export class WebhookSecretController {
  constructor(private readonly secrets: WebhookSecretRepository) {}

  @Post()
  @TakesNoBody()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make (or replace at once) the whsec_ secret that signs every later webhook attempt',
    description:
      'A new `whsec_` + base64 of 32 random bytes each call; the one it replaces (and any secret still overlapping from a rotation) stops signing at once, as after a leak. The secret in force when an attempt starts signs it with the Standard Webhooks headers. To change secrets without a gap, rotate instead.',
  })
  @ApiOkResponse({ type: WebhookSecretAnswer, description: 'the new secret' })
  async rotate(@CurrentMerchant() merchant: MerchantEntity): Promise<WebhookSecretAnswer> {
    const secret = newWebhookSecret();
    await this.secrets.set(merchant.merchantId, secret);
    return { secret };
  }

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the whsec_ secret: the old one keeps signing beside the new one for a while',
    description:
      'A new secret, as `POST /sandbox/webhook-secret` makes one; until `previous_valid_until` every attempt carries two signatures in `webhook-signature`, space-separated (the new one first), so a receiver verifies with either secret while it changes over. After it, only the new secret signs.',
  })
  @ApiBody({ type: RotateWebhookSecretDto, required: false })
  @ApiOkResponse({
    type: RotatedWebhookSecretAnswer,
    description: 'the new secret, and when the old one stops signing',
  })
  async rotateWithOverlap(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: RotateWebhookSecretDto,
  ): Promise<RotatedWebhookSecretAnswer> {
    const secret = newWebhookSecret();
    const overlapSeconds = body.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS;
    if (overlapSeconds === 0) {
      await this.secrets.set(merchant.merchantId, secret);
      return { secret, previous_valid_until: null };
    }
    // Real time, as webhook-timestamp is: a sandbox clock moved ahead must not end the overlap early.
    const until = new Date(Date.now() + overlapSeconds * 1000).toISOString();
    return { secret, previous_valid_until: await this.secrets.rotate(merchant.merchantId, secret, until) };
  }

  @Delete()
  @TakesNoBody()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove the secret (and any rotated one still overlapping): later webhook attempts go unsigned',
    description: 'Webhooks keep being delivered, without the Standard Webhooks headers.',
  })
  @ApiNoContentResponse({ description: 'removed (or there was none)' })
  async remove(@CurrentMerchant() merchant: MerchantEntity): Promise<void> {
    await this.secrets.set(merchant.merchantId, null);
  }
}
