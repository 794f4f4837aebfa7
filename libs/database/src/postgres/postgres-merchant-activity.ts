import type { MerchantActivity } from '../ports/merchant-activity';
import type { SerialWriter } from '../serial-writer';
import { STAMP_ACTIVITY } from '../sqlite/sqlite-merchant-activity';
import { sqlOf } from '../sql';

/** SQLite's statement (sqlite-merchant-activity.ts), in a write of its own. */
export class PostgresMerchantActivity implements MerchantActivity {
  constructor(private readonly writer: SerialWriter) {}

  async stamp(merchantId: string, atMs: number): Promise<void> {
    // One statement: the server runs it as a transaction of its own.
    await this.writer.writeOne((manager) => sqlOf(manager).run(STAMP_ACTIVITY, [atMs, merchantId]));
  }
}
