import 'reflect-metadata';
import { validateApiConfig } from './api-config';

const PRODUCTION = { PROFILE: 'production', LINK_SECRET: 'a-real-production-secret' };

describe('SECRETS_KEY (contract, "Secrets at rest")', () => {
  it('is required in the production profile', () => {
    expect(() => validateApiConfig(PRODUCTION)).toThrow(/SECRETS_KEY must be set in the production profile/);
    expect(validateApiConfig({ ...PRODUCTION, SECRETS_KEY: `p1:${'a'.repeat(64)}` }).SECRETS_KEY).toBe(
      `p1:${'a'.repeat(64)}`,
    );
  });

  it('is optional in the sandbox, and empty is unset', () => {
    expect(validateApiConfig({}).SECRETS_KEY).toBeUndefined();
    expect(validateApiConfig({ SECRETS_KEY: '' }).SECRETS_KEY).toBeUndefined();
  });

  it.each([
    ['no id', 'a'.repeat(64)],
    ['a short key', 'k1:abcd'],
    ['an id twice', `k1:${'a'.repeat(64)},k1:${'b'.repeat(64)}`],
    ['a bad id', `k_1:${'a'.repeat(64)}`],
    ['no key at all', ' , '],
  ])('refuses %s', (_what, value) => {
    expect(() => validateApiConfig({ SECRETS_KEY: value })).toThrow(/invalid API configuration/);
  });
});
