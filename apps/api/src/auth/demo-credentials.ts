import type { MerchantEntity } from './merchant.entity';

/** The demo fleet of contract §11, seeded at first start; its secrets are published. */
export const DEMO_MERCHANTS = [
  {
    merchantId: 'demo-merchant',
    secretKey: 'demo-secret-key',
    bound: 'SIM0000001',
    terminals: ['SIM0000001', 'SIM0000002'],
  },
  {
    merchantId: 'other-merchant',
    secretKey: 'other-secret-key',
    bound: 'SIM0000003',
    terminals: ['SIM0000003'],
  },
] as const;

/** The published sandbox secrets: anyone can sign with them, so production never accepts them. */
export function isDemoCredential(merchant: MerchantEntity): boolean {
  return DEMO_MERCHANTS.some((seed) => seed.secretKey === merchant.secretKey);
}
