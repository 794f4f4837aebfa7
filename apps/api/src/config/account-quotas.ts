import { isHosted, type ApiConfig } from './api-config';

/** The quotas every account is held to; undefined: none. */
export interface AccountQuotas {
  terminals: number | undefined;
  requestsPerSecond: number | undefined;
  transactionsPerDay: number | undefined;
}

/**
 * Hosted mode's defaults (contract, "Hosted mode"): the 20 terminals an account may be created
 * with; a tenth of what one node serves (a sync charge costs about 1 ms of CPU); a busy CI day.
 */
export const HOSTED_QUOTAS = {
  terminals: 20,
  requestsPerSecond: 100,
  transactionsPerDay: 5000,
} as const;

/** A quota as configured: unset takes the hosted default (none elsewhere), 0 is none. */
function quotaOf(configured: number | undefined, hostedDefault: number, hosted: boolean): number | undefined {
  const value = configured ?? (hosted ? hostedDefault : undefined);
  return value === 0 ? undefined : value;
}

export function accountQuotas(config: ApiConfig): AccountQuotas {
  const hosted = isHosted(config);
  return {
    terminals: quotaOf(config.QUOTA_TERMINALS, HOSTED_QUOTAS.terminals, hosted),
    requestsPerSecond: quotaOf(config.QUOTA_REQUESTS_PER_SECOND, HOSTED_QUOTAS.requestsPerSecond, hosted),
    transactionsPerDay: quotaOf(config.QUOTA_TRANSACTIONS_PER_DAY, HOSTED_QUOTAS.transactionsPerDay, hosted),
  };
}
