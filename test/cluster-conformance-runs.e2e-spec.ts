import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { poll, Stack } from '@tps/testing';
import { createReceiver } from '../examples/webhook-receiver/receiver';
import type { Json } from './payment-helpers';

/** Long enough for the reference receiver's searches; 30 s in the contract. */
const SEARCH_WINDOW_MS = 5000;

/**
 * Several replicas on one PostgreSQL database (docs/contract.md, "The conformance run"): a run
 * started on one replica is read, listed and counted against the account's one-at-a-time limit,
 * and its client address's cap ("Hard caps"), on another.
 */
describe('a conformance run across replicas [postgres]', () => {
  let stack: Stack;
  let server: Server | undefined;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      apiEnv: {
        CONFORMANCE_SEARCH_WINDOW_MS: String(SEARCH_WINDOW_MS),
        // As hosted mode sets it: every account here is made and used from this test's address.
        CAP_CONFORMANCE_RUNS_PER_ADDRESS: '1',
      },
    });
  }, 60_000);

  afterAll(async () => {
    server?.close();
    await stack?.stop();
  });

  it('is read on the other replica while it runs and once it finished', async () => {
    const created = await stack.clientOf(0).post<Json>('/sandbox/accounts', {});
    expect(created.status).toBe(201);
    const credentials = {
      merchantId: String(created.body.merchant_id),
      secret: String(created.body.secret_key),
    };
    const starting = stack.clientOf(0).as(credentials);
    const reading = stack.clientOf(1).as(credentials);
    const secret = await starting.post<Json>('/sandbox/webhook-secret');
    expect(secret.status).toBe(200);
    server = createReceiver({
      webhookSecret: String(secret.body.secret),
      baseUrl: stack.replicas[0].url,
      merchantId: credentials.merchantId,
      secretKey: credentials.secret,
    }).server;
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

    const started = await starting.post<Json>('/sandbox/conformance-runs', {
      url,
      report_url: new URL('/processed', url).toString(),
    });
    expect(started.status).toBe(201);
    const id = String(started.body.id);
    // One run at a time per account, and per client address, whichever replica is asked.
    expect((await reading.post<Json>('/sandbox/conformance-runs', { url })).status).toBe(429);
    const another = await stack.clientOf(1).post<Json>('/sandbox/accounts', {});
    expect(another.status).toBe(201);
    const sameAddress = await stack
      .clientOf(1)
      .as({ merchantId: String(another.body.merchant_id), secret: String(another.body.secret_key) })
      .post<Json>('/sandbox/conformance-runs', { url });
    expect(sameAddress.status).toBe(429);
    expect(sameAddress.body.message).toContain('conformance_runs_per_address = 1');
    const whileRunning = await reading.get<Json>(`/sandbox/conformance-runs/${id}`);
    expect({ status: whileRunning.status, id: whileRunning.body.id }).toEqual({ status: 200, id });

    const report = await poll(
      'the run to finish, read on the other replica',
      async () => {
        const answer = await reading.get<Json>(`/sandbox/conformance-runs/${id}`);
        return answer.body.state === 'finished' ? answer.body : undefined;
      },
      60_000,
    );
    expect(report.score).toEqual({ passed: 10, failed: 0, skipped: 0, total: 10 });
    const listed = await reading.get<{ items: Json[] }>('/sandbox/conformance-runs');
    expect(listed.body.items.map((run) => run.id)).toEqual([id]);
  }, 90_000);

  it('starts one run of starts sent at once to both replicas, and refuses the others', async () => {
    const created = await stack.clientOf(0).post<Json>('/sandbox/accounts', {});
    expect(created.status).toBe(201);
    const credentials = {
      merchantId: String(created.body.merchant_id),
      secret: String(created.body.secret_key),
    };
    // Nothing listens there: the run goes on until it is cut, holding the account's place.
    const url = 'http://127.0.0.1:9/webhooks';
    const starts = await Promise.all(
      [0, 1, 0, 1, 0, 1].map((replica) =>
        stack.clientOf(replica).as(credentials).post<Json>('/sandbox/conformance-runs', { url }),
      ),
    );
    expect(starts.map((start) => start.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);
    const listed = await stack
      .clientOf(1)
      .as(credentials)
      .get<{ items: Json[] }>('/sandbox/conformance-runs');
    expect(listed.body.items).toHaveLength(1);
  }, 30_000);
});
