import type { MerchantActivity } from '../ports/merchant-activity';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

/** Stores a merchant's last activity: one text for both stores (PostgreSQL's adapter and AccountRows run it too). */
export const STAMP_ACTIVITY = 'UPDATE merchants SET last_active_at_ms = ? WHERE merchant_id = ?';

export class SqliteMerchantActivity implements MerchantActivity {
  constructor(private readonly writer: SerialWriter) {}

  async stamp(merchantId: string, atMs: number): Promise<void> {
    await this.writer.write((manager) => sqlOf(manager).run(STAMP_ACTIVITY, [atMs, merchantId]));
  }
}
