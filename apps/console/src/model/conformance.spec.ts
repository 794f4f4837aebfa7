import { scoreWords, type ConformanceRun } from './conformance';

const run = (
  state: ConformanceRun['state'],
  passed: number,
  failed: number,
  skipped = 0,
): ConformanceRun => ({
  id: 'r',
  url: 'http://127.0.0.1:4000/',
  state,
  started_at: '2026-11-22T08:00:00.000Z',
  score: { passed, failed, skipped, total: 10 - skipped },
  cases: [],
});

describe('scoreWords', () => {
  it('says how many passed once finished, and how many are decided while running', () => {
    expect(scoreWords(run('finished', 9, 1))).toBe('9/10 passed');
    expect(scoreWords(run('running', 2, 1))).toBe('running: 3 of 10 decided');
    expect(scoreWords(run('finished', 8, 0, 2))).toBe('8/8 passed, 2 skipped');
  });
});
