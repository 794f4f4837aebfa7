import { randomUUID } from 'node:crypto';
import { Stack } from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';

const DESCRIPTOR_LIMIT = 1500;
const ACCOUNTS = 90;
const TERMINALS_EACH = 20;
const PER_HOUR = 70;
const METRICS_TOKEN = 'hosted-caps-metrics-token-0123';
/** Between the victim's charges: 50 a second at most, half its hosted quota. */
const VICTIM_PAUSE_MS = 20;

/**
 * Contract §22, "No tenant can hurt another": one client address asking for 90 accounts of 20
 * terminals from an API whose descriptor limit is 1500 meets the hard caps (the global one of
 * terminals, derived from that limit, then its own per hour) before the process runs out of
 * descriptors; meanwhile another tenant's signed charges and /health are all answered.
 */
describe('hosted mode: hard caps under one address asking for more than the process can hold', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      apiEnv: {
        HOSTED_MODE: 'true',
        // Room for the attack to reach the global cap: the per-address caps met are per hour.
        CAP_ACCOUNTS_ALIVE: String(ACCOUNTS),
        CAP_ACCOUNTS_PER_HOUR: String(PER_HOUR),
        METRICS_TOKEN,
      },
      apiDescriptorLimit: DESCRIPTOR_LIMIT,
      instant: [],
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function createAccount(terminals: number): Promise<{ status: number; body: Json; headers: Headers }> {
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminals }),
    });
    return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
  }

  it('answers 429 naming the cap before exhaustion, and serves the other tenant throughout', async () => {
    const made = await createAccount(1);
    expect(made.status).toBe(201);
    const victim = stack.client().as({ merchantId: made.body.merchant_id, secret: made.body.secret_key });

    let attacking = true;
    const victimStatuses: number[] = [];
    const healthStatuses: number[] = [];
    const victimLoop = (async () => {
      while (attacking) {
        const charge = await victim.post<Json>('/terminal/v1/sync/charge', {
          amount: amountOf(10_000),
          client_transaction_id: randomUUID(),
        });
        victimStatuses.push(charge.status);
        healthStatuses.push((await fetch(`${stack.apiUrl}/health`)).status);
        // A tenant within its own quota (hosted mode: 100 requests a second per account), however
        // fast the machine answers: a 429 here is then the attack's doing, not the victim's.
        await new Promise((resolve) => setTimeout(resolve, VICTIM_PAUSE_MS));
      }
    })();

    const answers: Array<{ status: number; body: Json; headers: Headers }> = [];
    try {
      for (let n = 0; n < ACCOUNTS; n++) answers.push(await createAccount(TERMINALS_EACH));
    } finally {
      attacking = false;
      await victimLoop;
    }

    const firstRefused = answers.findIndex((answer) => answer.status !== 201);
    expect(firstRefused).toBeGreaterThan(0);
    // Made until the global cap, refused from then on: never a 5xx, never a hang.
    expect(answers.slice(0, firstRefused).every((answer) => answer.status === 201)).toBe(true);
    const refusals = answers.slice(firstRefused);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(429);
      expect(['CAP-003', 'CAP-002']).toContain(refusal.body.code);
      expect(refusal.body.type).toBe('CAPACITY');
      expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const global = refusals.filter((refusal) => refusal.body.code === 'CAP-003');
    const hourly = refusals.filter((refusal) => refusal.body.code === 'CAP-002');
    expect(global.length).toBeGreaterThan(0);
    expect(global[0].body.message).toMatch(/terminals = \d+/);
    expect(hourly.length).toBeGreaterThan(0);
    expect(hourly[0].body.message).toContain(`accounts_per_hour = ${PER_HOUR}`);
    // The terminals cap is below what the descriptors allow: every terminal made is linked.
    const cap = Number(/terminals = (\d+)/.exec(global[0].body.message as string)?.[1]);
    expect(cap).toBeLessThan(DESCRIPTOR_LIMIT);

    expect(victimStatuses.length).toBeGreaterThan(0);
    expect(new Set(victimStatuses)).toEqual(new Set([200]));
    expect(new Set(healthStatuses)).toEqual(new Set([200]));

    // Still running and answering, with the refusals logged and counted.
    expect((await fetch(`${stack.apiUrl}/health`)).status).toBe(200);
    expect(stack.api.text).toMatch(/refused at a cap: .*terminals = \d+/);
    const metrics = await (
      await fetch(`${stack.apiUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const counted = (cap: string): number =>
      Number(new RegExp(`tps_cap_refusals_total\\{cap="${cap}"[^}]*\\} (\\d+)`).exec(metrics)?.[1]);
    expect(counted('terminals')).toBe(global.length);
    expect(counted('accounts_per_hour')).toBe(hourly.length);
  }, 120_000);
});
