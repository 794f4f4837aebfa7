import { ContractError } from '@tps/domain';
import { isHosted, type ApiConfig } from '../config/api-config';
import { isDemoCredential } from './demo-credentials';
import type { MerchantEntity } from './merchant.entity';

const READS = new Set(['GET', 'HEAD']);

/**
 * A hosted sandbox seeds the demo merchants read-only (contract §22, "Published credentials are
 * not an account"): anyone can sign with their published secrets, so those may read and nothing
 * else. Throws 403 AUTH-004 for any other request, `listen` included (`method` undefined), since
 * each would change what another visitor sees or take their webhooks.
 */
export function refusePublishedCredentials(
  config: ApiConfig,
  merchant: MerchantEntity,
  method: string | undefined,
): void {
  if (!isHosted(config) || !isDemoCredential(merchant)) return;
  if (method !== undefined && READS.has(method.toUpperCase())) return;
  throw new ContractError(
    'AUTH-004',
    'the demo credentials are published, so in this hosted sandbox they may only read: make an account of your own with POST /sandbox/accounts',
  );
}
