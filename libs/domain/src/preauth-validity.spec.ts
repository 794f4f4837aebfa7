import { DAY_MS } from './mexico-city-time';
import { isPreauthExpired, preauthExpiresAt, preauthValidityDays } from './preauth-validity';

describe('pre-authorization validity', () => {
  const approved = Date.parse('2026-11-22T16:00:00.000Z');

  it('holds 7 days for debit and 28 for credit', () => {
    expect(preauthValidityDays('DEBIT')).toBe(7);
    expect(preauthValidityDays('CREDIT')).toBe(28);
    expect(preauthExpiresAt(approved, 'DEBIT').toISOString()).toBe('2026-11-29T16:00:00.000Z');
    expect(preauthExpiresAt(approved, 'CREDIT').toISOString()).toBe('2026-12-20T16:00:00.000Z');
  });

  it.each([
    ['DEBIT', 7],
    ['CREDIT', 28],
  ])('a %s pre-authorization is valid until just before day %i, expired from then on', (card, days) => {
    expect(isPreauthExpired(approved, card, approved)).toBe(false);
    expect(isPreauthExpired(approved, card, approved + (days - 1) * DAY_MS)).toBe(false);
    expect(isPreauthExpired(approved, card, approved + days * DAY_MS - 1)).toBe(false);
    expect(isPreauthExpired(approved, card, approved + days * DAY_MS)).toBe(true);
    expect(isPreauthExpired(approved, card, approved + (days + 1) * DAY_MS)).toBe(true);
  });

  it('counts from the start it is given, so a re-authorization restarts it', () => {
    const reauthorized = approved + 6 * DAY_MS;
    expect(isPreauthExpired(approved, 'DEBIT', approved + 8 * DAY_MS)).toBe(true);
    expect(isPreauthExpired(reauthorized, 'DEBIT', approved + 8 * DAY_MS)).toBe(false);
  });
});
