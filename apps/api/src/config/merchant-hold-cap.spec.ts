import 'reflect-metadata';
import { merchantHoldCap, validateApiConfig } from './api-config';

describe('WEBHOOK_MAX_HELD_PER_MERCHANT', () => {
  it('is unset by default: what one process lets a merchant alone have in flight, 64 less one destination’s share', () => {
    expect(validateApiConfig({}).WEBHOOK_MAX_HELD_PER_MERCHANT).toBeUndefined();
    expect(merchantHoldCap(validateApiConfig({}))).toBe(56);
    expect(merchantHoldCap(validateApiConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: '16' }))).toBe(48);
    // A share above half the slots: the reserve leaves a merchant alone the share itself.
    expect(merchantHoldCap(validateApiConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: '40' }))).toBe(40);
  });

  it('takes a cap of its own', () => {
    expect(merchantHoldCap(validateApiConfig({ WEBHOOK_MAX_HELD_PER_MERCHANT: '10' }))).toBe(10);
    expect(merchantHoldCap(validateApiConfig({ WEBHOOK_MAX_HELD_PER_MERCHANT: '' }))).toBe(56);
  });

  // 0 would never claim a merchant's delivery again.
  it.each(['0', '-1', '2.5', 'many'])('refuses %s', (value) => {
    expect(() => validateApiConfig({ WEBHOOK_MAX_HELD_PER_MERCHANT: value })).toThrow(
      /WEBHOOK_MAX_HELD_PER_MERCHANT/,
    );
  });
});
