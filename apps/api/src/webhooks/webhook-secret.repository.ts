import { Injectable } from '@nestjs/common';
import { SerialWriter } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';

/**
 * The merchant's webhook-signing secret. Written through the shared serial writer, not a
 * repository `save`: on SQLite the repository's connection is the one that reads.
 */
@Injectable()
export class WebhookSecretRepository {
  constructor(private readonly writer: SerialWriter) {}

  async set(merchantId: string, secret: string | null): Promise<void> {
    await this.writer.write((manager) =>
      manager.update(MerchantEntity, { merchantId }, { webhookSecret: secret }),
    );
  }
}
