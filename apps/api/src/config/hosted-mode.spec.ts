import 'reflect-metadata';
import { destinationRules, validateApiConfig } from './api-config';

describe('HOSTED_MODE (contract, "Hosted mode")', () => {
  it('is off by default: the sandbox sends anywhere', () => {
    expect(destinationRules(validateApiConfig({}))).toEqual({
      requireHttps: false,
      allowPrivate: true,
      refuseOwnAddresses: false,
    });
  });

  it("refuses non-public addresses and the host's own in the sandbox, plain http still allowed", () => {
    expect(destinationRules(validateApiConfig({ HOSTED_MODE: 'true' }))).toEqual({
      requireHttps: false,
      allowPrivate: false,
      refuseOwnAddresses: true,
    });
  });

  it('changes nothing in production, which refuses them already', () => {
    const production = {
      PROFILE: 'production',
      LINK_SECRET: 'a-real-production-secret',
      SECRETS_KEY: `p1:${'a'.repeat(64)}`,
    };
    expect(destinationRules(validateApiConfig({ ...production, HOSTED_MODE: 'true' }))).toEqual({
      requireHttps: true,
      allowPrivate: false,
      refuseOwnAddresses: false,
    });
  });

  it.each(['yes', '1'])('refuses %s', (value) => {
    expect(() => validateApiConfig({ HOSTED_MODE: value })).toThrow(/HOSTED_MODE/);
  });
});

describe('ACCOUNT_CREATION_TOKEN (contract, "Hosted mode")', () => {
  it('is taken in hosted mode', () => {
    const config = validateApiConfig({ HOSTED_MODE: 'true', ACCOUNT_CREATION_TOKEN: 'a-token-of-16-chars' });
    expect(config.ACCOUNT_CREATION_TOKEN).toBe('a-token-of-16-chars');
  });

  it('refuses to start outside hosted mode, where it would protect nothing', () => {
    expect(() => validateApiConfig({ ACCOUNT_CREATION_TOKEN: 'a-token-of-16-chars' })).toThrow(
      /ACCOUNT_CREATION_TOKEN applies in hosted mode only/,
    );
  });

  it('refuses a token shorter than 16 characters', () => {
    expect(() => validateApiConfig({ HOSTED_MODE: 'true', ACCOUNT_CREATION_TOKEN: 'short' })).toThrow(
      /ACCOUNT_CREATION_TOKEN/,
    );
  });
});
