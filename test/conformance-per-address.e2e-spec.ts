import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { poll, Stack, type SignedClient } from '@tps/testing';
import type { Json } from './payment-helpers';
import { describeOnStores } from './stores';

const METRICS_TOKEN = 'conformance-per-address-metrics-0123';
const CAP = 'conformance_runs_per_address';
/** Two client addresses, named by the trusted proxy's X-Forwarded-For (contract, "Sandbox accounts"). */
const FIRST = '203.0.113.10';
const SECOND = '203.0.113.20';

/**
 * A receiver that holds each request to a path until the test releases that path, so that a
 * run goes on exactly as long as the test says (the answer timeout is longer than the test).
 */
class HoldingReceiver {
  private readonly held = new Map<string, ServerResponse[]>();
  private readonly released = new Set<string>();
  readonly server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const path = request.url ?? '/';
    if (this.released.has(path)) response.writeHead(204).end();
    else this.held.set(path, [...(this.held.get(path) ?? []), response]);
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether a request to `path` waits for its answer. */
  holds(path: string): boolean {
    return (this.held.get(path)?.length ?? 0) > 0;
  }

  release(path: string): void {
    this.released.add(path);
    for (const response of this.held.get(path) ?? []) response.writeHead(204).end();
    this.held.delete(path);
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}

/**
 * Contract §22, "Hard caps": conformance runs going on at once are capped per client address,
 * whichever of the address's accounts starts them, counted from where runs are kept (the
 * process's memory on SQLite, the database on PostgreSQL). The cap is set here as hosted mode
 * sets it by default (1): hosted mode itself refuses the loopback receiver a test must use.
 */
describeOnStores('conformance runs per client address', (store) => {
  let stack: Stack;
  const receiver = new HoldingReceiver();
  let base: string;

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      apiEnv: {
        TRUSTED_PROXIES: 'loopback',
        CAP_CONFORMANCE_RUNS_PER_ADDRESS: '1',
        // Longer than the test: a held answer keeps its run going until released.
        CONFORMANCE_ANSWER_TIMEOUT_MS: '55000',
        METRICS_TOKEN,
      },
    });
    base = await receiver.listen();
  });

  afterAll(async () => {
    receiver.close();
    await stack?.stop();
  });

  async function accountFrom(address: string): Promise<SignedClient> {
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'x-forwarded-for': address },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { merchant_id: string; secret_key: string };
    return stack.client().as({ merchantId: body.merchant_id, secret: body.secret_key });
  }

  function startRun(account: SignedClient, address: string, path: string) {
    const body = JSON.stringify({ url: `${base}${path}`, cases: ['fast-ack'] });
    return account.send<Json>('POST', '/sandbox/conformance-runs', body, { 'x-forwarded-for': address });
  }

  async function finished(account: SignedClient, id: string): Promise<Json> {
    return poll(
      'the run to finish',
      async () => {
        const answer = await account.get<Json>(`/sandbox/conformance-runs/${id}`);
        return answer.body.state === 'finished' ? answer.body : undefined;
      },
      30_000,
    );
  }

  async function refusalsCounted(): Promise<number> {
    const metrics = await (
      await fetch(`${stack.apiUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(new RegExp(`tps_cap\\{cap="${CAP}"[^}]*\\} 1\\b`));
    return Number(new RegExp(`tps_cap_refusals_total\\{cap="${CAP}"[^}]*\\} (\\d+)`).exec(metrics)?.[1]);
  }

  it("refuses another account's run from the same address until the first ends; another address is not held", async () => {
    const [one, two, three] = [await accountFrom(FIRST), await accountFrom(FIRST), await accountFrom(FIRST)];
    const elsewhere = await accountFrom(SECOND);

    const first = await startRun(one, FIRST, '/one');
    expect(first.status).toBe(201);
    const refused = await startRun(two, FIRST, '/two');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: 'RATE_LIMIT', code: 'RATE-001' });
    expect(refused.body.message).toContain(`${CAP} = 1`);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    expect(await refusalsCounted()).toBe(1);
    expect(stack.api.text).toContain(`refused at a cap: this client address has 1 conformance run(s)`);

    // Another address's accounts are not held by the first address's run.
    const theirs = await startRun(elsewhere, SECOND, '/elsewhere');
    expect(theirs.status).toBe(201);

    receiver.release('/one');
    await finished(one, String(first.body.id));
    const again = await startRun(two, FIRST, '/two');
    expect(again.status).toBe(201);
    expect((await startRun(three, FIRST, '/three')).status).toBe(429);
    expect(await refusalsCounted()).toBe(2);

    receiver.release('/two');
    receiver.release('/elsewhere');
    await finished(two, String(again.body.id));
    await finished(elsewhere, String(theirs.body.id));
  });

  it("frees the address's room when the account whose run goes on is deleted", async () => {
    const [one, two] = [await accountFrom(FIRST), await accountFrom(FIRST)];
    expect((await startRun(one, FIRST, '/deleted')).status).toBe(201);
    expect((await startRun(two, FIRST, '/after')).status).toBe(429);
    // Deleted once the run made its transaction and waits on its receiver's answer.
    await poll(
      'the run to wait on its receiver',
      () => Promise.resolve(receiver.holds('/deleted') || undefined),
      10_000,
    );

    expect((await one.delete('/sandbox/accounts/me')).status).toBe(204);
    // Its run ends at once, though its receiver still holds every answer.
    const started = await poll(
      'a run of the other account to start',
      async () => {
        const answer = await startRun(two, FIRST, '/after');
        return answer.status === 429 ? undefined : answer;
      },
      5000,
    );
    expect(started.status).toBe(201);
    receiver.release('/after');
    await finished(two, String(started.body.id));
  });
});
