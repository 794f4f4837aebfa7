import { poll, Stack } from '@tps/testing';
import { scrape } from './prometheus-scrape';
import { describeOnStores } from './stores';

const METRICS_TOKEN = 'maintenance-leases-metrics-token';
/** The outbox is read this often; its lease lasts three readings (a minute). */
const REFRESH_MS = 20_000;

/**
 * Contract, "Several replicas": a maintenance job (the outbox's readings, retention, the routed
 * requests' sweep) is done by the one process holding its lease, and a process that stops
 * gracefully gives back the jobs it holds once its tasks have stopped. The next process takes
 * them at its first turn, not once the stopped one's lease has lapsed: here, the one that starts
 * next reads the outbox, and exports it, at once.
 */
describeOnStores('maintenance leases at a stop', (store) => {
  let stack: Stack;
  const auth = { authorization: `Bearer ${METRICS_TOKEN}` };

  /** Who holds each maintenance job, by name ('' when nobody does). */
  const holders = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (
        await stack.store.rows<{ name: string; holder: string }>(
          'api',
          'SELECT name, holder FROM maintenance_leases',
        )
      ).map((row) => [row.name, row.holder]),
    );

  /** Waits, for less than one reading, until a scrape exports the outbox's figures. */
  const outboxExported = () =>
    poll(
      'the outbox read and exported',
      async () => ((await scrape(stack.apiUrl, auth)).has('tps_outbox_depth') ? true : undefined),
      REFRESH_MS / 2,
    );

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      apiEnv: { METRICS_TOKEN, METRICS_REFRESH_MS: String(REFRESH_MS) },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('gives back the jobs a process holds when it stops: the next process takes them at its first turn', async () => {
    // The process reads the outbox as it starts: the readings' job is its own.
    await outboxExported();
    expect((await holders())['outbox-readings']).not.toBe('');

    await stack.api.stop();
    // Nobody holds any job any more: each is free at once.
    const held = Object.entries(await holders()).filter(([, holder]) => holder !== '');
    expect(held).toEqual([]);

    // Started again, its first reading (the next is a whole REFRESH_MS later) finds the job free.
    await stack.startApi();
    await outboxExported();
  }, 90_000);
});
