import 'reflect-metadata';
import { MAX_CONCURRENT_ATTEMPTS, validateApiConfig } from './api-config';

describe('WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION', () => {
  it('is 8 of the 64 attempts in flight unless set', () => {
    expect(MAX_CONCURRENT_ATTEMPTS).toBe(64);
    expect(validateApiConfig({}).WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION).toBe(8);
  });

  it.each([
    ['1', 1],
    ['64', 64],
  ])('takes %s', (value, expected) => {
    expect(
      validateApiConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: value })
        .WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION,
    ).toBe(expected);
  });

  // More than the whole service's slots would bound nothing; 0 would never deliver.
  it.each(['0', '-1', '65', '2.5', 'many'])('refuses %s', (value) => {
    expect(() => validateApiConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: value })).toThrow(
      /WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION/,
    );
  });
});
