import type { EntityManager } from 'typeorm';

/**
 * What a sandbox account's writes store beside its merchant and terminal rows (contract §14,
 * "Retention"). Each runs in the write `within` (SerialWriter), which the account's repository
 * opens, so that no caller ever sees half an account.
 */
export abstract class AccountRows {
  /**
   * Whether the merchant is stored, its row held until the write `within` commits: a write that
   * holds it (a removal of the account, a terminal added to it) waits for another that does.
   */
  abstract holdMerchant(within: EntityManager, merchantId: string): Promise<boolean>;
  /** Stores `atMs` (real time) as the merchant's last activity. */
  abstract stampActive(within: EntityManager, merchantId: string, atMs: number): Promise<void>;
  /**
   * Removes what the merchant did: its transactions with their events, its webhook deliveries
   * with their attempts, its print jobs.
   */
  abstract eraseActivity(within: EntityManager, merchantId: string): Promise<void>;
}
