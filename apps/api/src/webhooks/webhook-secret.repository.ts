import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityTable, portsOf, SerialWriter, sqlOf, type WebhookSecrets } from '@tps/database';
import { MerchantEntity, WEBHOOK_SECRET_COLUMN } from '../auth/merchant.entity';

/**
 * The merchant's webhook-signing secrets. Written through the shared serial writer, not a
 * repository `save`: on SQLite the repository's connection is the one that reads.
 */
@Injectable()
export class WebhookSecretRepository {
  private readonly secrets: WebhookSecrets;
  private readonly table: EntityTable<MerchantEntity>;

  constructor(
    private readonly writer: SerialWriter,
    reads: DataSource,
  ) {
    this.secrets = portsOf(reads).webhookSecrets(writer);
    this.table = new EntityTable(reads, MerchantEntity);
  }

  /** Sets the secret (or none) at once: a rotated secret still overlapping stops signing too. */
  async set(merchantId: string, secret: string | null): Promise<void> {
    await this.writer.write((manager) =>
      this.table.update(
        sqlOf(manager),
        { merchantId },
        { webhookSecret: secret, previousWebhookSecret: null, previousWebhookSecretUntil: null },
      ),
    );
  }

  /**
   * A new secret, the one it replaces signing beside it until `until` (ISO 8601, real time):
   * moved in one statement, so two rotations at once never lose the secret in force. Resolves the
   * end of the overlap, or null when there was no secret to keep.
   */
  rotate(merchantId: string, secret: string, until: string): Promise<string | null> {
    return this.secrets.rotate(merchantId, WEBHOOK_SECRET_COLUMN.to(secret) as string, until);
  }
}
