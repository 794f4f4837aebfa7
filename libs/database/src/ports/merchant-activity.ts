/** When each merchant last made a signed request, in real time (contract, "Retention"). */
export abstract class MerchantActivity {
  /** Stores `atMs` as the merchant's last activity, in a write of its own. */
  abstract stamp(merchantId: string, atMs: number): Promise<void>;
}
