import { mexicoCityDate, mexicoCityIso } from './mexico-city-time';
import { isVoidAllowed } from './void-cutoff';

const at = (iso: string): number => Date.parse(iso);

describe('void cut-off in Mexico City (UTC-6)', () => {
  // 10:00 local on 22 November 2026.
  const approved = at('2026-11-22T16:00:00.000Z');

  it('allows a void at 21:59:59 local on the day of the approval', () => {
    expect(mexicoCityIso(at('2026-11-23T03:59:59.000Z'))).toBe('2026-11-22T21:59:59.000-06:00');
    expect(isVoidAllowed(approved, at('2026-11-23T03:59:59.000Z'))).toBe(true);
    expect(isVoidAllowed(approved, at('2026-11-23T03:59:59.999Z'))).toBe(true);
  });

  it('refuses it from 22:00:00 local', () => {
    expect(isVoidAllowed(approved, at('2026-11-23T04:00:00.000Z'))).toBe(false);
    expect(isVoidAllowed(approved, at('2026-11-23T05:59:59.999Z'))).toBe(false);
  });

  it('refuses it on the next local day, at any hour', () => {
    expect(isVoidAllowed(approved, at('2026-11-23T06:00:00.000Z'))).toBe(false);
    expect(isVoidAllowed(approved, at('2026-11-23T16:00:00.000Z'))).toBe(false);
  });

  it('allows it at once after the approval', () => {
    expect(isVoidAllowed(approved, approved)).toBe(true);
  });

  it('counts the calendar day in Mexico City, not in UTC', () => {
    // 23:30 UTC on the 22nd is 17:30 local on the 22nd; 01:00 UTC on the 23rd is still the 22nd locally.
    const evening = at('2026-11-22T23:30:00.000Z');
    expect(mexicoCityDate(evening)).toBe('2026-11-22');
    expect(isVoidAllowed(evening, at('2026-11-23T01:00:00.000Z'))).toBe(true);
    // 00:30 local on the 23rd (06:30 UTC) is another day than 21:00 local on the 22nd.
    expect(isVoidAllowed(at('2026-11-23T03:00:00.000Z'), at('2026-11-23T06:30:00.000Z'))).toBe(false);
  });

  it('never allows a void of a transaction approved after 22:00 local', () => {
    const late = at('2026-11-23T04:30:00.000Z'); // 22:30 local on the 22nd
    expect(isVoidAllowed(late, late)).toBe(false);
  });
});
