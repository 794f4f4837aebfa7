import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  DEMO_MERCHANT,
  REPO_ROOT,
  Stack,
  WebhookReceiver,
  poll,
  sqliteRows,
  type Credentials,
} from '@tps/testing';

/** Production seals secrets under a key of its own (contract, "Secrets at rest"); the sandbox start shares it. */
const SECRETS_KEY = `prod-1:${'7'.repeat(64)}`;

/** Adds a merchant with its terminals, the first one bound to its credentials. */
function provisionMerchant(stack: Stack, merchantId: string, ...serials: string[]): Credentials {
  const terminals = serials.flatMap((serial) => ['--terminal', serial]);
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'dist/scripts/merchant.js'), 'add', merchantId, ...terminals, '--bound', serials[0]],
    { env: { ...process.env, DATABASE_URL: `sqlite:${stack.apiDatabase}`, SECRETS_KEY }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`provisioning failed: ${result.stderr}`);
  const created = JSON.parse(result.stdout) as { merchant_id: string; secret_key: string };
  return { merchantId: created.merchant_id, secret: created.secret_key };
}

function charge(webhook: string) {
  return {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
    events_webhook_url: webhook,
  };
}

describe('the production profile (contract §5)', () => {
  let stack: Stack;
  let acme: Credentials;

  beforeAll(async () => {
    // A database that the sandbox seeded with the demo credentials, then run in production.
    stack = await Stack.start({ withoutSimulator: true, apiEnv: { SECRETS_KEY } });
    await stack.restartApi({ PROFILE: 'production' });
    acme = provisionMerchant(stack, 'acme', 'TPV0000001');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the demo credentials', async () => {
    const answer = await stack
      .client()
      .as(DEMO_MERCHANT)
      .post('/terminal/v1/SIM0000002/async/charge', charge('https://8.8.8.8/hook'));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ type: 'AUTHENTICATION', code: 'AUTH-001' });
  });

  it('serves no sandbox route', async () => {
    const answer = await stack.client().as(acme).patch('/sandbox/terminals/TPV0000001', { pace: 'instant' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
  });

  it('answers no CORS preflight and grants no origin (contract §18: sandbox only)', async () => {
    const preflight = await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
      method: 'OPTIONS',
      headers: { origin: 'http://pos.example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const health = await fetch(`${stack.apiUrl}/health`, { headers: { origin: 'http://pos.example.test' } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('GET / lists no console', async () => {
    const home = (await (await fetch(`${stack.apiUrl}/`)).json()) as { profile: string; links: object };
    expect(home).toMatchObject({ profile: 'production' });
    expect(Object.keys(home.links)).not.toContain('console');
  });

  it('serves neither the demo console nor its live stream (contract §15: sandbox only)', async () => {
    const page = await fetch(`${stack.apiUrl}/console`);
    expect(page.status).toBe(404);
    expect(await page.json()).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
    const live = await stack
      .client()
      .as(acme)
      .stream('/sandbox/events', () => true);
    expect(live.status).toBe(404);
    expect(live.body).toMatchObject({ code: 'NF-000' });
  });

  it.each([
    ['plain http', 'http://8.8.8.8/hook', /https/],
    ['loopback', 'https://127.0.0.1/hook', /non-public/],
    ['a name for loopback', 'https://localhost/hook', /non-public/],
    ['IPv6 loopback', 'https://[::1]/hook', /non-public/],
    ['a private network', 'https://10.20.30.40/hook', /non-public/],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest', /non-public/],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /non-public/],
  ])('refuses a webhook URL on %s with 400 PAR-004', async (_case, url, reason) => {
    const answer = await stack.client().as(acme).post('/terminal/v1/async/charge', charge(url));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-004', param: 'events_webhook_url' });
    expect(String(answer.body.message)).toMatch(reason);
  });

  it('lets a public https URL through to the terminal (here offline: 503 TER-001)', async () => {
    const answer = await stack
      .client()
      .as(acme)
      .post('/terminal/v1/TPV0000001/async/charge', charge('https://8.8.8.8/hook'));
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });
  });

  it('lets configuration allow private addresses, still over https only', async () => {
    await stack.restartApi({ PROFILE: 'production', ALLOW_PRIVATE_WEBHOOKS: 'true' });
    const client = stack.client().as(acme);
    const privateHttps = await client.post(
      '/terminal/v1/TPV0000001/async/charge',
      charge('https://127.0.0.1/hook'),
    );
    expect(privateHttps.body).toMatchObject({ code: 'TER-001' });
    const privateHttp = await client.post(
      '/terminal/v1/TPV0000001/async/charge',
      charge('http://127.0.0.1/hook'),
    );
    expect(privateHttp.body).toMatchObject({ code: 'PAR-004' });
  });
});

interface AttemptRow {
  client_transaction_id: string;
  event_status: string;
  state: string;
  n: number;
  at: string;
  error: string | null;
}

describe('the production profile at delivery time (contract §5: a destination is checked again when connecting)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let acme: Credentials;

  const key = (row: AttemptRow): string => `${row.client_transaction_id}/${row.event_status}/${row.n}`;

  /** Every attempt of acme's deliveries, oldest first. */
  const attempts = (): Promise<AttemptRow[]> =>
    sqliteRows<AttemptRow>(
      stack.apiDatabase,
      `SELECT d.client_transaction_id, d.event_status, d.state, a.n, a.at, a.error
       FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
       WHERE d.merchant_id = 'acme' ORDER BY a.at, d.position`,
    );

  /** The API in production on its port (so that the simulator links back), on the same database. */
  const startInProduction = (allowPrivate: boolean) =>
    stack.startApi({
      PORT: String(stack.api.port),
      PROFILE: 'production',
      ALLOW_PRIVATE_WEBHOOKS: String(allowPrivate),
    });

  beforeAll(async () => {
    // The sandbox starts the simulator; the terminals provisioned here link up once in production.
    stack = await Stack.start({ apiEnv: { SECRETS_KEY } });
    acme = provisionMerchant(stack, 'acme', 'TPV0000001', 'TPV0000002');
    await stack.api.stop();
    await startInProduction(true);
    await stack.waitLinked(5);
    // Plain HTTP: an https attempt reaches its socket, then fails its TLS handshake and is retried.
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('refuses at delivery a private destination accepted while private ones were allowed, by name or by address', async () => {
    const client = stack.client().as(acme);
    const urls = {
      TPV0000001: `https://localhost:${receiver.port}/hook`,
      TPV0000002: `https://127.0.0.1:${receiver.port}/hook`,
    };
    const ids: string[] = [];
    for (const [serial, url] of Object.entries(urls)) {
      const body = charge(url);
      const answer = await client.post(`/terminal/v1/${serial}/async/charge`, body);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'TERMINAL_ACKNOWLEDGED' });
      ids.push(body.client_transaction_id);
    }
    // Allowed, each first attempt connects (and fails on TLS, so its delivery stays pending).
    await poll(
      'a first attempt of each charge',
      async () => {
        const made = new Set((await attempts()).map((a) => a.client_transaction_id));
        return ids.every((id) => made.has(id)) ? true : undefined;
      },
      15_000,
    );
    const firstAttempts = await attempts();
    expect(firstAttempts.map((a) => a.error)).not.toContain('destination_refused');
    expect(receiver.connections).toBeGreaterThanOrEqual(2);

    await stack.api.stop();
    const before = new Set((await attempts()).map(key));
    const connectionsBefore = receiver.connections;
    await startInProduction(false);

    // Forbidden now: every later attempt is refused before connecting, and gives up at once.
    const settled = await poll(
      'every delivery of both charges to give up',
      async () => {
        const rows = await attempts();
        const done = ids.every((id) => {
          const mine = rows.filter((r) => r.client_transaction_id === id);
          return mine.some((r) => r.event_status === 'APPROVAL') && mine.every((r) => r.state === 'failed');
        });
        return done ? rows : undefined;
      },
      20_000,
    );
    const later = settled.filter((row) => !before.has(key(row)));
    expect(later.length).toBeGreaterThanOrEqual(ids.length * 3);
    expect(new Set(later.map((row) => row.error))).toEqual(new Set(['destination_refused']));
    expect(new Set(later.map((row) => row.client_transaction_id))).toEqual(new Set(ids));
    expect(receiver.connections).toBe(connectionsBefore);
    expect(receiver.received).toEqual([]);
  });

  it('refuses at callback time a print destination accepted while private ones were allowed, by name or by address', async () => {
    await stack.api.stop();
    await startInProduction(true);
    await stack.waitLinked(5);
    const client = stack.client().as(acme);
    const connectionsBefore = receiver.connections;
    const urls = {
      TPV0000001: `https://localhost:${receiver.port}/print`,
      TPV0000002: `https://127.0.0.1:${receiver.port}/print`,
    };
    const jobs: Array<[string, string]> = [];
    for (const [serial, webhookUrl] of Object.entries(urls)) {
      // Private destinations are allowed now, so the service takes the job.
      const created = await client.post(`/terminal/v1/${serial}/print`, {
        commands: [{ type: 'text', value: 'receipt' }],
        webhookUrl,
      });
      expect(created.status).toBe(202);
      jobs.push([serial, String(created.body.printJobId)]);
    }
    // The paper takes 1.5 s at the provisioned terminals' pace: the service goes down before it
    // has stored either result, and comes back forbidding private destinations.
    await stack.api.kill();
    const stored = await sqliteRows<{ status: string }>(
      stack.apiDatabase,
      `SELECT status FROM print_jobs WHERE print_job_id IN (?, ?)`,
      jobs.map(([, id]) => id),
    );
    expect(stored.map((row) => row.status)).not.toContain('COMPLETED');
    await startInProduction(false);

    for (const [serial, printJobId] of jobs) {
      const job = await poll(
        `the callback of the job on ${serial}`,
        async () => {
          const answer = await client.get(`/terminal/v1/${serial}/print/${printJobId}`);
          return answer.body.callback === undefined ? undefined : answer.body;
        },
        15_000,
      );
      expect(job).toMatchObject({
        status: 'COMPLETED',
        callback: { statusCode: null, error: 'destination_refused' },
      });
    }
    expect(receiver.connections).toBe(connectionsBefore);
  });
});
