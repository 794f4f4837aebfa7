import { CUT_AFTER_TIMEOUTS, DestinationHealth } from './destination-health';

describe('destination health', () => {
  it('cuts a destination to one attempt in flight after timeouts in a row, and gives its share back on an answer', () => {
    const health = new DestinationHealth(8);
    for (let i = 1; i < CUT_AFTER_TIMEOUTS; i += 1) health.ended('hangs', true);
    expect(health.shareOf('hangs')).toBe(8);
    health.ended('hangs', true);
    expect(health.shareOf('hangs')).toBe(1);
    expect(health.shareOf('other')).toBe(8);
    health.ended('hangs', false);
    expect(health.shareOf('hangs')).toBe(8);
  });

  it('counts only timeouts in a row', () => {
    const health = new DestinationHealth(4);
    health.ended('flaky', true);
    health.ended('flaky', true);
    health.ended('flaky', false);
    health.ended('flaky', true);
    expect(health.shareOf('flaky')).toBe(4);
  });
});
