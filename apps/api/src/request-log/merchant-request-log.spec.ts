import type { AnsweredRequest } from '@tps/http';
import { MerchantRequestLog } from './merchant-request-log';
import { REQUESTS_PER_MERCHANT } from './request-log';

function answered(path: string, status = 200): AnsweredRequest {
  return {
    at: new Date('2026-11-26T10:00:00.000Z'),
    method: 'POST',
    route: '/terminal/v1/sync/charge',
    path,
    status,
    durationMs: 12.5,
    requestId: `id-${path}`,
  };
}

describe('MerchantRequestLog', () => {
  it("lists one merchant's requests, newest first, and no other merchant's", async () => {
    const log = new MerchantRequestLog();
    log.record('m1', answered('/a'));
    log.record('m2', answered('/other'));
    log.record('m1', answered('/b', 409));
    expect(await log.recent('m1')).toEqual([
      {
        at: '2026-11-26T10:00:00.000Z',
        method: 'POST',
        path: '/b',
        status: 409,
        duration_ms: 12.5,
        request_id: 'id-/b',
      },
      {
        at: '2026-11-26T10:00:00.000Z',
        method: 'POST',
        path: '/a',
        status: 200,
        duration_ms: 12.5,
        request_id: 'id-/a',
      },
    ]);
    expect(await log.recent('m3')).toEqual([]);
  });

  it('keeps only the most recent requests of a merchant', async () => {
    const log = new MerchantRequestLog();
    for (let i = 0; i < REQUESTS_PER_MERCHANT + 5; i++) log.record('m1', answered(`/${i}`));
    const recent = await log.recent('m1');
    expect(recent).toHaveLength(REQUESTS_PER_MERCHANT);
    expect(recent[0]?.path).toBe(`/${REQUESTS_PER_MERCHANT + 4}`);
    expect(recent.at(-1)?.path).toBe('/5');
  });
});
