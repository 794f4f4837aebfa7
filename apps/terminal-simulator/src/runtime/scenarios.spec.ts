import { SCENARIOS, scenarioFor } from './scenarios';
import { order } from './testing/runtime-harness';

describe('scenario selection (contract §10)', () => {
  it.each(Object.keys(SCENARIOS))('a total ending in %s chooses its row', (ending) => {
    expect(scenarioFor(order(ending)).name).toBe(ending);
    expect(scenarioFor(order(ending, 'sync', 'authorization')).name).toBe(ending);
  });

  it('reads the last two digits of the sum of every amount field, extra taxes included', () => {
    const base = order('00');
    const chosen = scenarioFor({
      ...base,
      amount: { ...base.amount, subtotalIva: 10000, extraTaxes: { ...base.amount.extraTaxes, iac: 51 } },
    });
    expect(chosen.name).toBe('51');
  });

  it.each(['00', '01', '50', '99', '90'])('an unlisted ending (%s) is approved, credit, CHIP', (ending) => {
    expect(scenarioFor(order(ending))).toMatchObject({
      name: 'default',
      card: 'credit',
      steps: [
        { step: 'read_card', readingType: 'CHIP' },
        { step: 'ask_acquirer', responseCode: '00' },
      ],
    });
  });

  it('does not apply the amount rule to follow-up operations, which reuse the original card', () => {
    const capture = {
      ...order('51', 'async', 'capture'),
      original: {
        readingType: 'CONTACTLESS' as const,
        cardType: 'DEBIT',
        franchise: 'MASTERCARD',
        pan: '',
        bin: '',
      },
    };
    expect(scenarioFor(capture)).toMatchObject({
      name: 'follow-up',
      card: 'debit',
      steps: [{ step: 'read_card', readingType: 'CONTACTLESS' }, { responseCode: '00' }],
    });
  });

  it('keeps the scenario waits at 10 s (95) and 60 s (97), whatever the pace', () => {
    expect(SCENARIOS['95'].steps).toContainEqual({
      step: 'ask_acquirer',
      responseCode: '00',
      extraWaitMs: 10_000,
    });
    expect(SCENARIOS['97'].steps[0]).toEqual({ step: 'wait_for_person', timeoutMs: 60_000 });
  });
});

describe('cardholder manual (contract §15)', () => {
  it('waits 60 s for a person where the scenario would read the card, then goes on as the scenario says', () => {
    expect(scenarioFor(order('00'), 'manual').steps).toEqual([
      { step: 'wait_for_person', timeoutMs: 60_000 },
      { step: 'ask_acquirer', responseCode: '00', extraWaitMs: 0 },
    ]);
    expect(scenarioFor(order('51'), 'manual').steps).toEqual([
      { step: 'wait_for_person', timeoutMs: 60_000 },
      { step: 'ask_acquirer', responseCode: '51', extraWaitMs: 0 },
    ]);
  });

  it('applies to follow-up operations too: every operation waits for the card action', () => {
    expect(scenarioFor(order('00', 'async', 'capture'), 'manual').steps[0]).toEqual({
      step: 'wait_for_person',
      timeoutMs: 60_000,
    });
  });

  it('keeps the rejections on the terminal, which read no card, and scenario 97 as it is', () => {
    expect(scenarioFor(order('91'), 'manual')).toEqual(SCENARIOS['91']);
    expect(scenarioFor(order('97'), 'manual')).toEqual(SCENARIOS['97']);
  });

  it('auto (the default) is the scenario table', () => {
    for (const ending of Object.keys(SCENARIOS)) {
      expect(scenarioFor(order(ending), 'auto')).toEqual(SCENARIOS[ending]);
    }
  });
});
