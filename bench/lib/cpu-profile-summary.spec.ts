import { summarize, type CpuProfile } from './cpu-profile-summary';

const ROOT = 'file:///repo/dist';

/**
 * root ─ handler (our API) ─ query (typeorm) ─ run (sqlite3)
 *      └ (idle)
 * Samples every 1 ms; the first two fall before the window, the last one after it.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 5] },
    {
      id: 2,
      callFrame: { functionName: 'handler', url: `${ROOT}/apps/api/src/payments/x.js` },
      children: [3],
    },
    {
      id: 3,
      callFrame: { functionName: 'query', url: `${ROOT}/../node_modules/typeorm/q.js` },
      children: [4],
    },
    { id: 4, callFrame: { functionName: 'run', url: `${ROOT}/../node_modules/sqlite3/lib/s.js` } },
    { id: 5, callFrame: { functionName: '(idle)', url: '' } },
  ],
  startTime: 0,
  endTime: 10_000,
  // at 1, 2 (before) · 3…9 in the window · 10 (after)
  samples: [2, 2, 2, 3, 4, 4, 5, 5, 5, 2],
  timeDeltas: Array.from({ length: 10 }, () => 1000),
};

describe('summarize', () => {
  const summary = summarize(profile, { fromEndMs: 7.5, toEndMs: 0.5 });

  it('counts only the samples inside the window', () => {
    expect(summary.windowMs).toBe(7);
  });

  it('gives self time by owner: package, our app, or V8 category', () => {
    expect(summary.byOwner).toEqual([
      { name: '(idle)', share: 3 / 7 },
      { name: 'sqlite3', share: 2 / 7 },
      { name: 'apps/api', share: 1 / 7 },
      { name: 'typeorm', share: 1 / 7 },
    ]);
  });

  it('gives inclusive time of our own functions, counting what they call', () => {
    expect(summary.ours).toEqual([{ name: 'handler (apps/api/src/payments/x.js)', share: 4 / 7 }]);
  });
});
