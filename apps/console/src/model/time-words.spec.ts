import { agoWords, mexicoCityText, mexicoCityTimeOfDay, offsetWords, sandboxClockText } from './time-words';

const NOON_UTC = Date.parse('2026-11-26T12:00:00.000Z');

describe('time as the console words it', () => {
  it('reads the sandbox clock in Mexico City (UTC-6), moved by the offset, to the second', () => {
    expect(mexicoCityText(NOON_UTC)).toBe('2026-11-26 06:00:00');
    expect(sandboxClockText(NOON_UTC + 1000, 0)).toBe('2026-11-26 06:00:01 Mexico City');
    expect(sandboxClockText(NOON_UTC, 29 * 86_400)).toBe('2026-12-25 06:00:00 Mexico City');
  });

  it("reads an event's time of day in Mexico City too, to the millisecond (the timeline)", () => {
    expect(mexicoCityTimeOfDay('2026-11-26T12:00:00.123Z')).toBe('06:00:00.123');
    expect(mexicoCityTimeOfDay('2026-11-26T03:04:05.007Z')).toBe('21:04:05.007');
  });

  it('shows an offset of a day or more in days, and below a day in hours and minutes', () => {
    expect(offsetWords(0)).toBe('');
    expect(offsetWords(59)).toBe('');
    expect(offsetWords(60)).toBe('+1 min');
    expect(offsetWords(3600)).toBe('+1 h');
    expect(offsetWords(2 * 3600 + 5 * 60)).toBe('+2 h 5 min');
    expect(offsetWords(86_400)).toBe('+1 d');
    expect(offsetWords(7 * 86_400)).toBe('+7 d');
    expect(offsetWords(29 * 86_400)).toBe('+29 d');
    expect(offsetWords(29 * 86_400 + 3 * 3600 + 59)).toBe('+29 d 3 h');
  });

  it('says how long ago, for a person', () => {
    expect(agoWords(NOON_UTC, NOON_UTC + 59_999)).toBe('just now');
    expect(agoWords(NOON_UTC, NOON_UTC + 3 * 60_000)).toBe('3 min ago');
    expect(agoWords(NOON_UTC, NOON_UTC + 125 * 60_000)).toBe('2 h ago');
  });
});
