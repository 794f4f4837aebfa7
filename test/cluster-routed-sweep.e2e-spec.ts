import { randomUUID } from 'node:crypto';
import { poll, Stack } from '@tps/testing';
import { amountOf, ensureDaytime } from './payment-helpers';

const SERIAL = 'SIM0000002';

/**
 * Several replicas on one PostgreSQL database (contract, "Several replicas on one PostgreSQL
 * database"): a routed request whose caller died while it waited is removed by the sweep of a
 * replica still alive, once it is 10 s past its reply timeout. The simulator links to the first
 * replica; the second asks, and is killed while it waits.
 */
describe('routed requests left by a caller that died [postgres]', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      apiEnv: { ROUTED_REQUEST_SWEEP_INTERVAL_MS: '200', TERMINAL_REPLY_TIMEOUT_MS: '1000' },
    });
    await ensureDaytime(stack.client());
    // A charge takes the terminal 2.5 s: the caller is still waiting when it is killed.
    expect((await stack.client().patch(`/sandbox/terminals/${SERIAL}`, { pace: 'realistic' })).status).toBe(
      200,
    );
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const routedRequests = async (): Promise<number> =>
    (await stack.store.rows<{ n: number }>('api', 'SELECT COUNT(*) AS n FROM routed_requests'))[0].n;

  it('are removed once past their reply timeout by the margin, by the replica still alive', async () => {
    const caller = stack.clientOf(1);
    const asked = caller
      .post(`/terminal/v1/${SERIAL}/sync/charge`, {
        amount: amountOf(10_000),
        client_transaction_id: randomUUID(),
      })
      .catch(() => undefined);
    await poll(
      'the charge handed to the replica holding the uplink',
      async () => (Number(await routedRequests()) > 0 ? true : undefined),
      5_000,
    );
    await stack.replicas[1].kill();
    await asked;
    expect(Number(await routedRequests())).toBe(1);
    await poll(
      'the left request removed',
      async () => (Number(await routedRequests()) === 0 ? true : undefined),
      30_000,
    );
  }, 60_000);
});
