import { randomUUID } from 'node:crypto';
import { shareOfTerminal } from '@tps/link';
import {
  AppProcess,
  OTHER_MERCHANT,
  SEEDED_SERIALS,
  Stack,
  poll,
  type Credentials,
  type SignedClient,
} from '@tps/testing';
import { amountOf, ensureDaytime, type Json } from './payment-helpers';
import { startShard } from './simulator-shard';

/**
 * The fleet split over simulator shares (docs/contract.md, "Links between the apps"): two API
 * replicas on one PostgreSQL database, told FLEET_SHARES=2, and one simulator process per share.
 * Each simulator hosts only its share's terminals, and every terminal is reached from every replica.
 */
const REPLICAS = 2;
const SHARES = 2;
/** Accounts made until the bound terminals (Local form) fall in every share. */
const MAX_ACCOUNTS = 12;

interface SimulatorHealth {
  hosted_terminals: number;
  share: { id: string; state: 'holder' | 'refused' | 'connecting'; refused_reason?: string };
}

interface Merchant {
  credentials: Credentials | undefined;
  bound: string;
  serials: string[];
}

/** Every replica, as a simulator is given them: it links to the first and to the next when that one is gone. */
function replicasOf(stack: Stack): string {
  return stack.replicas.map((replica) => replica.url).join(',');
}

async function healthOf(simulator: AppProcess): Promise<SimulatorHealth> {
  return (await fetch(`${simulator.url}/health`)).json() as Promise<SimulatorHealth>;
}

function as(client: SignedClient, merchant: Merchant): SignedClient {
  return merchant.credentials === undefined ? client : client.as(merchant.credentials);
}

function charge(client: SignedClient, path: string) {
  return client.post<Json>(path, { amount: amountOf(10_000), client_transaction_id: randomUUID() });
}

describe('the fleet split over simulator shards', () => {
  let stack: Stack;
  const shards = new Map<string, AppProcess>();
  let stray: AppProcess | undefined;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      withoutSimulator: true,
      apiEnv: { FLEET_SHARES: String(SHARES) },
    });
    for (let k = 1; k <= SHARES; k++)
      shards.set(`shard-${k}`, await startShard(stack, `shard-${k}`, replicasOf(stack)));
    for (let n = 0; n < REPLICAS; n++) await stack.waitReady(n, 20_000);
    for (const serial of SEEDED_SERIALS) {
      const client = serial === 'SIM0000003' ? stack.client().as(OTHER_MERCHANT) : stack.client();
      const response = await client.patch(`/sandbox/terminals/${serial}`, { pace: 'instant' });
      if (response.status !== 200) throw new Error(`could not make ${serial} instant`);
    }
    await ensureDaytime(stack.client());
    await ensureDaytime(stack.client().as(OTHER_MERCHANT));
  }, 90_000);

  afterAll(async () => {
    await stray?.stop();
    for (const shard of shards.values()) await shard.stop();
    await stack?.stop();
  });

  it('each simulator hosts exactly the terminals of its share', async () => {
    // The seeded fleet lands in both shares, so that both simulators serve some of it.
    const expected = new Map<string, string[]>();
    for (const serial of SEEDED_SERIALS) {
      const share = shareOfTerminal(serial, SHARES);
      expected.set(share, [...(expected.get(share) ?? []), serial]);
    }
    expect([...expected.keys()].sort()).toEqual(['shard-1', 'shard-2']);
    for (const [share, simulator] of shards) {
      const health = await healthOf(simulator);
      expect({ share, state: health.share.state, hosted: health.hosted_terminals }).toEqual({
        share,
        state: 'holder',
        hosted: expected.get(share)?.length,
      });
    }
  });

  it('reaches every terminal from every replica, Cloud and Local form, each charge approved', async () => {
    const merchants: Merchant[] = [
      { credentials: undefined, bound: 'SIM0000001', serials: ['SIM0000001', 'SIM0000002'] },
      { credentials: OTHER_MERCHANT, bound: 'SIM0000003', serials: ['SIM0000003'] },
    ];
    // Accounts made until some bound terminal (what the Local form reaches) lies in each share; on
    // the replica the simulators link to, as an account's answer tells the links this replica holds.
    const boundShares = (): Set<string> => new Set(merchants.map((m) => shareOfTerminal(m.bound, SHARES)));
    for (let made = 0; boundShares().size < SHARES && made < MAX_ACCOUNTS; made++) {
      const account = await stack
        .clientOf(0)
        .post<Json>('/sandbox/accounts', { terminals: 2, pace: 'instant' });
      expect(account.status).toBe(201);
      const terminals = account.body.terminals as Json[];
      expect(terminals.map((terminal) => terminal.link)).toEqual(['up', 'up']);
      const credentials = {
        merchantId: account.body.merchant_id as string,
        secret: account.body.secret_key as string,
      };
      await ensureDaytime(stack.clientOf(0).as(credentials));
      merchants.push({
        credentials,
        bound: terminals[0].serialNumber as string,
        serials: terminals.map((terminal) => terminal.serialNumber as string),
      });
    }
    expect([...boundShares()].sort()).toEqual(['shard-1', 'shard-2']);

    const answers: Array<{ replica: number; path: string; status: number; approved: unknown }> = [];
    for (let n = 0; n < REPLICAS; n++) {
      for (const merchant of merchants) {
        const client = as(stack.clientOf(n), merchant);
        const paths = [
          ...merchant.serials.map((serial) => `/terminal/v1/${serial}/sync/charge`),
          '/terminal/v1/sync/charge',
        ];
        for (const path of paths) {
          const response = await charge(client, path);
          answers.push({ replica: n, path, status: response.status, approved: response.body.approved });
        }
      }
    }
    expect(answers.filter((answer) => answer.status !== 200 || answer.approved !== true)).toEqual([]);
    expect(answers.length).toBeGreaterThanOrEqual(REPLICAS * (SEEDED_SERIALS.length + 2));
  }, 90_000);

  it("a sandbox reset on either replica goes to each share's simulator and the fleet serves again", async () => {
    const account = await stack
      .clientOf(0)
      .post<Json>('/sandbox/accounts', { terminals: 6, pace: 'instant' });
    expect(account.status).toBe(201);
    const credentials = {
      merchantId: account.body.merchant_id as string,
      secret: account.body.secret_key as string,
    };
    const serials = (account.body.terminals as Json[]).map((terminal) => terminal.serialNumber as string);
    for (let n = 0; n < REPLICAS; n++) {
      const reset = await stack.clientOf(n).as(credentials).post<Json>('/sandbox/reset', {});
      expect({ replica: n, status: reset.status }).toEqual({ replica: n, status: 200 });
      await ensureDaytime(stack.clientOf(n).as(credentials));
      for (const serial of serials) {
        const response = await charge(
          stack.clientOf(n).as(credentials),
          `/terminal/v1/${serial}/sync/charge`,
        );
        expect({ replica: n, serial, status: response.status, approved: response.body.approved }).toEqual({
          replica: n,
          serial,
          status: 200,
          approved: true,
        });
      }
    }
  }, 90_000);

  it('refuses a simulator for a share the fleet is not split into, with the reason on both sides', async () => {
    stray = await startShard(stack, 'shard-3', replicasOf(stack));
    const health = await poll(
      'the shard-3 simulator to be refused',
      async () => {
        const seen = await healthOf(stray!);
        return seen.share.state === 'refused' ? seen : undefined;
      },
      15_000,
    );
    expect(health.share.id).toBe('shard-3');
    expect(health.hosted_terminals).toBe(0);
    expect(stray.log).toContain("share shard-3 is not one of this fleet's shares (shard-1, shard-2)");
    const apiLogs = stack.replicas.map((replica) => replica.log).join('\n');
    expect(apiLogs).toMatch(/refused a control link for share shard-3 from instance [0-9a-f]+/);
    // The shares that are the fleet's keep serving.
    for (let n = 0; n < REPLICAS; n++)
      expect((await fetch(`${stack.replicas[n].url}/ready`)).status).toBe(200);
  });
});
