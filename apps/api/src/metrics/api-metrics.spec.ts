import 'reflect-metadata';
import type { ApiConfig } from '../config/api-config';
import type { ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from './api-metrics';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

/** The samples of a scrape, `name{labels} value` each, without the comment lines. */
async function samplesOf(metrics: ApiMetrics): Promise<string[]> {
  return (await metrics.scrape()).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

function metricsOf(): ApiMetrics {
  return new ApiMetrics(
    { REPLICA_ID: 'spec' } as ApiConfig,
    { subscribe: () => () => undefined } as unknown as ApiMessages,
  );
}

describe('ApiMetrics', () => {
  afterEach(() => jest.useRealTimers());

  it('has every series an alert reads at zero from the start', async () => {
    const metrics = metricsOf();
    metrics.routesServed([{ method: 'POST', route: '/terminal/v1/:terminalSerial/sync/charge' }]);
    const samples = await samplesOf(metrics);
    for (const status of ['500', '503', '504'])
      expect(samples).toContain(
        `http_requests_total{method="POST",route="/terminal/v1/:terminalSerial/sync/charge",status="${status}",replica="spec"} 0`,
      );
    expect(samples).toContain(
      'http_requests_total{method="POST",route="(unrouted)",status="503",replica="spec"} 0',
    );
    expect(samples).toContain('tps_routed_requests_total{link="uplink",replica="spec"} 0');
    expect(samples).toContain('tps_routed_requests_total{link="control",replica="spec"} 0');
    expect(samples).toContain('tps_storage_failures_total{replica="spec"} 0');
    for (const outcome of ['delivered', 'retrying', 'failed'])
      expect(samples).toContain(`tps_webhook_attempts_total{outcome="${outcome}",replica="spec"} 0`);
    metrics.onModuleDestroy();
  });

  it("reads the outbox only when asked to, never in a scrape, and exports it only while it is this replica's to read", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const metrics = metricsOf();
    let reads = 0;
    let answer: () => Promise<{ depth: number; oldestAgeSeconds: number }> = async () => ({
      depth: 7,
      oldestAgeSeconds: 42,
    });
    metrics.watchOutbox(() => {
      reads += 1;
      return answer();
    });
    expect((await samplesOf(metrics)).filter((line) => line.startsWith('tps_outbox'))).toEqual([]);
    metrics.exportClusterFigures(true);
    await metrics.readOutboxNow();
    await samplesOf(metrics);
    await samplesOf(metrics);
    expect(reads).toBe(1);
    jest.setSystemTime(1_003_500);
    // The database is away: the reading fails, the last one is kept and its age grows.
    answer = () => Promise.reject(new Error('connection terminated'));
    await expect(metrics.readOutboxNow()).rejects.toThrow('connection terminated');
    expect((await samplesOf(metrics)).filter((line) => line.startsWith('tps_outbox'))).toEqual([
      'tps_outbox_depth{replica="spec"} 7',
      'tps_outbox_oldest_age_seconds{replica="spec"} 42',
      'tps_outbox_read_age_seconds{replica="spec"} 3.5',
    ]);
    metrics.exportClusterFigures(false);
    expect((await samplesOf(metrics)).filter((line) => line.startsWith('tps_outbox'))).toEqual([]);
    metrics.onModuleDestroy();
  });
});
