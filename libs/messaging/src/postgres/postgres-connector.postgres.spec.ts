import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TcpFaultProxy, TestStore } from '@tps/testing';
import { postgresNotifyConnector } from './postgres-connector';

const QUERY_TIMEOUT_MS = 500;

/**
 * Contract "Every wait bounded", for the notifying session: a server that stops answering fails a
 * notification at the session's query timeout instead of holding it (and every later one behind
 * it) until the stall ends, and the next notification after the stall goes out on a new session.
 */
describe('postgresNotifyConnector behind a stalled server', () => {
  let dir: string;
  let store: TestStore;
  let proxy: TcpFaultProxy;
  let connector: ReturnType<typeof postgresNotifyConnector>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-notify-'));
    store = new TestStore('postgres', dir);
    proxy = await TcpFaultProxy.start();
    connector = postgresNotifyConnector(proxy.route(await store.url('notify')), 'tps-notify-spec', {
      connectionTimeoutMillis: 1000,
      query_timeout: QUERY_TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    await connector?.close().catch(() => undefined);
    await proxy?.close();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails a notification at the query timeout while stalled, then notifies on a new session', async () => {
    await connector.notify(['before']);
    proxy.stall();
    try {
      const started = Date.now();
      const stalled = connector.notify(['during']).then(
        () => 'sent',
        () => 'failed',
      );
      const outcome = await Promise.race([
        stalled,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), QUERY_TIMEOUT_MS * 4)),
      ]);
      expect(outcome).toBe('failed');
      expect(Date.now() - started).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 50);
    } finally {
      proxy.release();
    }
    await expect(connector.notify(['after'])).resolves.toBeUndefined();
  });
});
