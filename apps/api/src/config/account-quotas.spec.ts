import 'reflect-metadata';
import { accountQuotas, HOSTED_QUOTAS } from './account-quotas';
import { validateApiConfig } from './api-config';

describe('per-account quotas (contract, "Hosted mode")', () => {
  it('are none outside hosted mode, unless set', () => {
    expect(accountQuotas(validateApiConfig({}))).toEqual({
      terminals: undefined,
      requestsPerSecond: undefined,
      transactionsPerDay: undefined,
    });
    expect(accountQuotas(validateApiConfig({ QUOTA_REQUESTS_PER_SECOND: '40' })).requestsPerSecond).toBe(40);
  });

  it("take hosted mode's defaults, each replaced by its setting, 0 turning it off", () => {
    expect(accountQuotas(validateApiConfig({ HOSTED_MODE: 'true' }))).toEqual(HOSTED_QUOTAS);
    expect(
      accountQuotas(
        validateApiConfig({ HOSTED_MODE: 'true', QUOTA_TERMINALS: '5', QUOTA_TRANSACTIONS_PER_DAY: '0' }),
      ),
    ).toEqual({
      terminals: 5,
      requestsPerSecond: HOSTED_QUOTAS.requestsPerSecond,
      transactionsPerDay: undefined,
    });
  });

  it('do not apply in production, which has no hosted mode', () => {
    const production = {
      PROFILE: 'production',
      LINK_SECRET: 'a-real-production-secret',
      SECRETS_KEY: `p1:${'a'.repeat(64)}`,
      HOSTED_MODE: 'true',
    };
    expect(accountQuotas(validateApiConfig(production)).terminals).toBeUndefined();
  });

  it('takes an empty setting as unset', () => {
    expect(accountQuotas(validateApiConfig({ HOSTED_MODE: 'true', QUOTA_TERMINALS: '' })).terminals).toBe(
      HOSTED_QUOTAS.terminals,
    );
  });

  it.each([
    ['QUOTA_TERMINALS', '-1'],
    ['QUOTA_REQUESTS_PER_SECOND', '1.5'],
    ['QUOTA_TRANSACTIONS_PER_DAY', 'many'],
  ])('refuses to start with %s=%s', (name, value) => {
    expect(() => validateApiConfig({ HOSTED_MODE: 'true', [name]: value })).toThrow(new RegExp(name));
  });
});
