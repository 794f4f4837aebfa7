import {
  AUTO_CARDHOLDER,
  cardholderAt,
  cardholderLapsesAtMs,
  chooseCardholder,
  DEFAULT_CARDHOLDER_MANUAL_LAPSE_MS,
} from './cardholder-setting';

const LAPSE = DEFAULT_CARDHOLDER_MANUAL_LAPSE_MS;
const SET_AT = Date.parse('2026-11-26T10:00:00.000Z');

describe('cardholder setting: manual lapses back to auto (contract §15)', () => {
  const manual = chooseCardholder('manual', SET_AT, '203.0.113.7');

  it('records when and from where manual was set', () => {
    expect(manual).toEqual({ mode: 'manual', setAtMs: SET_AT, setFrom: '203.0.113.7' });
    expect(cardholderLapsesAtMs(manual, LAPSE)).toBe(SET_AT + 10 * 60_000);
  });

  it('holds manual until the lapse, then is auto', () => {
    expect(cardholderAt(manual, SET_AT, LAPSE)).toBe(manual);
    expect(cardholderAt(manual, SET_AT + LAPSE - 1, LAPSE)).toBe(manual);
    expect(cardholderAt(manual, SET_AT + LAPSE, LAPSE)).toEqual(AUTO_CARDHOLDER);
    expect(cardholderAt(manual, SET_AT + 5 * LAPSE, LAPSE)).toEqual(AUTO_CARDHOLDER);
  });

  it('manual asked again starts the lapse anew; auto never lapses and names nobody', () => {
    const again = chooseCardholder('manual', SET_AT + LAPSE - 1, '198.51.100.2');
    expect(cardholderAt(again, SET_AT + LAPSE, LAPSE)).toBe(again);
    const auto = chooseCardholder('auto', SET_AT, '203.0.113.7');
    expect(auto).toEqual({ mode: 'auto' });
    expect(cardholderLapsesAtMs(auto, LAPSE)).toBeNull();
    expect(cardholderAt(auto, SET_AT + 100 * LAPSE, LAPSE)).toBe(auto);
  });
});
