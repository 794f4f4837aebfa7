import type { MerchantActivity } from '../ports/merchant-activity';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

export class SqliteMerchantActivity implements MerchantActivity {
  constructor(private readonly writer: SerialWriter) {}

  async stamp(merchantId: string, atMs: number): Promise<void> {
    await this.writer.write((manager) =>
      sqlOf(manager).run('UPDATE merchants SET last_active_at_ms = ? WHERE merchant_id = ?', [
        atMs,
        merchantId,
      ]),
    );
  }
}
