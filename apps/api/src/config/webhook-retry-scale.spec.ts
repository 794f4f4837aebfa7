import 'reflect-metadata';
import { validateApiConfig } from './api-config';

describe('WEBHOOK_RETRY_SCALE (test-only)', () => {
  it('is 1 unless set: the contract schedule as written', () => {
    expect(validateApiConfig({}).WEBHOOK_RETRY_SCALE).toBe(1);
  });

  it('takes a fraction in (0, 1] in the sandbox profile', () => {
    expect(validateApiConfig({ WEBHOOK_RETRY_SCALE: '0.002' }).WEBHOOK_RETRY_SCALE).toBe(0.002);
  });

  it.each(['0', '-1', '2', 'fast', 'NaN'])('refuses %s', (value) => {
    expect(() => validateApiConfig({ WEBHOOK_RETRY_SCALE: value })).toThrow(/WEBHOOK_RETRY_SCALE/);
  });

  it('refuses any scale but 1 in production', () => {
    const production = {
      PROFILE: 'production',
      LINK_SECRET: 'a-real-production-secret',
      SECRETS_KEY: `p1:${'a'.repeat(64)}`,
    };
    expect(() => validateApiConfig({ ...production, WEBHOOK_RETRY_SCALE: '0.5' })).toThrow(
      /WEBHOOK_RETRY_SCALE is for tests/,
    );
    expect(validateApiConfig(production).WEBHOOK_RETRY_SCALE).toBe(1);
  });
});
