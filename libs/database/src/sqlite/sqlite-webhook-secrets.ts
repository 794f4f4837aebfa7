import type { WebhookSecrets } from '../ports/webhook-secrets';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

/**
 * Statements both stores run alike: PostgreSQL's ports take this adapter as it is
 * (postgres-ports.ts). The secrets move in one statement; the end of the overlap is read back in
 * the same write.
 */
export class SqliteWebhookSecrets implements WebhookSecrets {
  constructor(private readonly writer: SerialWriter) {}

  rotate(merchantId: string, sealed: string, until: string): Promise<string | null> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      await sql.run(
        'UPDATE merchants SET previous_webhook_secret = webhook_secret, ' +
          'previous_webhook_secret_until = CASE WHEN webhook_secret IS NULL THEN NULL ELSE CAST(? AS varchar(32)) END, ' +
          'webhook_secret = ? WHERE merchant_id = ?',
        [until, sealed, merchantId],
      );
      const [row] = await sql.all<{ until: string | null }>(
        'SELECT previous_webhook_secret_until AS until FROM merchants WHERE merchant_id = ?',
        [merchantId],
      );
      return row?.until ?? null;
    });
  }
}
