import type { MerchantActivity } from '../ports/merchant-activity';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

export class PostgresMerchantActivity implements MerchantActivity {
  constructor(private readonly writer: SerialWriter) {}

  async stamp(merchantId: string, atMs: number): Promise<void> {
    // One statement: the server runs it as a transaction of its own.
    await this.writer.writeOne((manager) =>
      sqlOf(manager).run('UPDATE merchants SET last_active_at_ms = ? WHERE merchant_id = ?', [
        atMs,
        merchantId,
      ]),
    );
  }
}
