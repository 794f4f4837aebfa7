import { cardholderNote } from './cardholder-note';

const manual = {
  setAt: '2026-11-26T12:00:00.000Z',
  setFrom: '203.0.113.7',
  lapsesAt: '2026-11-26T12:10:00.000Z',
};
const at = (iso: string): number => Date.parse(iso);

describe('the note on a manual terminal', () => {
  it('says since when, from which address, and when it lapses', () => {
    expect(cardholderNote(manual, at('2026-11-26T12:00:10.000Z'))).toBe(
      'manual, set just now from 203.0.113.7 · back to auto in 10 min',
    );
    expect(cardholderNote(manual, at('2026-11-26T12:03:00.000Z'))).toBe(
      'manual, set 3 min ago from 203.0.113.7 · back to auto in 7 min',
    );
  });

  it('never counts down below a minute, the sweep stores the lapse within seconds', () => {
    expect(cardholderNote(manual, at('2026-11-26T12:09:59.000Z'))).toMatch(/back to auto in 1 min$/);
    expect(cardholderNote(manual, at('2026-11-26T12:10:30.000Z'))).toMatch(/back to auto in 1 min$/);
  });
});
