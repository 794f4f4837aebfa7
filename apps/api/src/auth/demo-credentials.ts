import { SEED_MERCHANTS } from '../seed/sandbox-seed';
import type { MerchantEntity } from './merchant.entity';

/** The published sandbox secrets: anyone can sign with them, so production never accepts them. */
export function isDemoCredential(merchant: MerchantEntity): boolean {
  return SEED_MERCHANTS.some((seed) => seed.secretKey === merchant.secretKey);
}
