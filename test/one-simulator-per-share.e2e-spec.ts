import { join } from 'node:path';
import { WebSocket } from 'ws';
import { CONTROL_PATH, LINK_INSTANCE_HEADER, LINK_SHARE_HEADER, LINK_TOKEN_HEADER } from '@tps/link';
import { AppProcess, LINK_SECRET, poll, ShareHolder, SIMULATOR_ENTRY, Stack } from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';

/** A charge on each form: Local rides the control link, Cloud the terminal's own uplink. */
const ROUTES = ['/terminal/v1/sync/charge', '/terminal/v1/SIM0000002/sync/charge'];
/** Approved (ends in 00) and declined with ISO code 51 (ends in 51): contract §10. */
const TOTALS = [11600, 11651];
const CHARGES = 40;
const CHARGE_EVERY_MS = 150;

interface ControlLinkView {
  share: string;
  holder: { instance: string; epoch: number; since: string } | null;
  refused_last_minute: number;
  refused: Array<{ instance: string; at: string }>;
  links_last_minute: number;
  flapping: boolean;
}

interface SimulatorShare {
  id: string;
  instance: string;
  state: 'holder' | 'refused' | 'connecting';
  epoch: number | null;
}

async function json<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T };
}

async function shareOf(simulator: AppProcess): Promise<SimulatorShare> {
  return (await json<{ share: SimulatorShare }>(`${simulator.url}/health`)).body.share;
}

/** Waits until the simulator holds the fleet share: its share as it reports it then. */
function holdsTheShare(simulator: AppProcess): Promise<SimulatorShare> {
  return poll(
    `${simulator.name} to hold the share`,
    async () => {
      const share = await shareOf(simulator);
      return share.state === 'holder' ? share : undefined;
    },
    15_000,
  );
}

async function controlLinkOf(stack: Stack): Promise<ControlLinkView> {
  return (await json<{ control_link: ControlLinkView }>(`${stack.apiUrl}/health`)).body.control_link;
}

/** A second simulator process beside the stack's, on its own port and SQLite file. */
function startSecond(stack: Stack): Promise<AppProcess> {
  return AppProcess.start('terminal-simulator-2', SIMULATOR_ENTRY, {
    PORT: '0',
    HOST: '127.0.0.1',
    API_URL: stack.apiUrl,
    DATABASE_URL: `sqlite:${join(stack.dir, 'terminal-2.sqlite')}`,
    LINK_SECRET,
    RECONNECT_MIN_MS: '20',
    SHARE_RETRY_MIN_MS: '100',
    SHARE_RETRY_MAX_MS: '400',
  });
}

/** Sync charges spread over a few seconds, each answered 200 with the outcome its amount picks. */
async function chargeAll(stack: Stack, count: number): Promise<void> {
  const client = stack.client();
  for (let i = 0; i < count; i++) {
    const started = Date.now();
    const total = TOTALS[i % TOTALS.length];
    const response = await client.post<Json>(
      ROUTES[Math.floor(i / TOTALS.length) % ROUTES.length],
      newBody({ amount: amountOf(total) }),
    );
    expect({ i, status: response.status, code: response.body.code }).toEqual({
      i,
      status: 200,
      code: undefined,
    });
    expect(response.body.approved).toBe(total === 11600);
    if (total !== 11600) expect(response.body.responseCode).toBe('51');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + CHARGE_EVERY_MS - Date.now())));
  }
}

/**
 * Contract "One simulator per fleet share": a second simulator process started against a running
 * sandbox is refused, and the one linked keeps serving; it takes over only once the holder is gone.
 */
describe('one simulator per fleet share', () => {
  let stack: Stack;
  let second: AppProcess | undefined;

  beforeAll(async () => {
    stack = await Stack.start();
  });

  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  it('refuses a second simulator for the same share, and the linked one keeps answering every charge', async () => {
    const holder = await shareOf(stack.simulator!);
    second = await startSecond(stack);

    await chargeAll(stack, CHARGES);

    const refused = await shareOf(second);
    expect(refused).toMatchObject({ id: 'fleet', state: 'refused', epoch: null });
    expect(refused.instance).not.toBe(holder.instance);
    expect(second.log).toContain(`another simulator holds share fleet (instance ${holder.instance}`);
    expect(second.log).toMatch(/stop it, or start this one with another FLEET_SHARE/);
    expect(stack.api.log).toContain(
      `refused a control link for share fleet from instance ${refused.instance}`,
    );

    const health = await json<{ simulator: string; control_link: ControlLinkView }>(`${stack.apiUrl}/health`);
    expect(health.status).toBe(200);
    expect(health.body.simulator).toBe('connected');
    expect(health.body.control_link.holder).toMatchObject({ instance: holder.instance, epoch: holder.epoch });
    expect(health.body.control_link.refused_last_minute).toBeGreaterThanOrEqual(2);
    expect(health.body.control_link.refused.map((r) => r.instance)).toContain(refused.instance);
    expect(health.body.control_link.flapping).toBe(false);

    // A refused second process does not make the sandbox unready: the holder still serves.
    const ready = await json<{ ready: boolean; control_link?: ControlLinkView }>(`${stack.apiUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.ready).toBe(true);
    expect(ready.body.control_link?.refused.map((r) => r.instance)).toContain(refused.instance);

    // The second process hosts nothing: no uplink of its own for the holder's serials.
    const secondHealth = await json<{ hosted_terminals: number; linked_terminals: number }>(
      `${second.url}/health`,
    );
    expect(secondHealth.body).toMatchObject({ hosted_terminals: 0, linked_terminals: 0 });
  });

  it('answers a link that names no share or instance, or a malformed one, 400 before any upgrade', async () => {
    const statusOf = (headers: Record<string, string>): Promise<number> =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${stack.api.port}${CONTROL_PATH}`, { headers });
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.once('open', () => reject(new Error('the link was accepted')));
        socket.on('error', () => undefined);
      });
    const token = { [LINK_TOKEN_HEADER]: LINK_SECRET };
    expect(await statusOf(token)).toBe(400);
    expect(await statusOf({ ...token, [LINK_SHARE_HEADER]: 'fleet' })).toBe(400);
    expect(
      await statusOf({ ...token, [LINK_SHARE_HEADER]: 'fleet, fleet', [LINK_INSTANCE_HEADER]: 'x' }),
    ).toBe(400);
    expect(
      await statusOf({ ...token, [LINK_SHARE_HEADER]: 'a'.repeat(33), [LINK_INSTANCE_HEADER]: 'x' }),
    ).toBe(400);
    expect((await controlLinkOf(stack)).holder).not.toBeNull();
  });

  it('lets the second simulator take the share over, with a higher epoch, once the holder is killed', async () => {
    const before = await shareOf(stack.simulator!);
    await stack.simulator!.kill();
    const taken = await holdsTheShare(second!);
    expect(taken.epoch).toBeGreaterThan(before.epoch!);
    await stack.waitLinked(3);
    await poll(
      'the API to report the new holder',
      async () => {
        const health = await json<{ control_link: ControlLinkView }>(`${stack.apiUrl}/health`);
        return health.body.control_link.holder?.instance === taken.instance ? true : undefined;
      },
      10_000,
    );
    expect(second!.log).toContain(`holds share fleet as instance ${taken.instance}, epoch ${taken.epoch}`);
    await chargeAll(stack, 8);
  });

  it('shows a flapping control link, and /ready waits while it flaps', async () => {
    await second!.stop();
    let flapper: ShareHolder | undefined;
    try {
      for (let link = 0; link < 5; link++) {
        flapper?.close();
        await poll(
          'the share to be free',
          async () => ((await controlLinkOf(stack)).holder === null ? true : undefined),
          5_000,
        );
        flapper = await ShareHolder.link(stack.api.port, 'flapper');
      }
      const health = await controlLinkOf(stack);
      expect(health).toMatchObject({ holder: { instance: 'flapper' }, flapping: true });
      expect(health.links_last_minute).toBeGreaterThanOrEqual(5);
      const ready = await json<{ ready: boolean; waiting_for: string[]; control_link: ControlLinkView }>(
        `${stack.apiUrl}/ready`,
      );
      expect(ready.status).toBe(503);
      expect(ready.body.waiting_for).toContain('control link flapping');
      expect(ready.body.control_link.flapping).toBe(true);
    } finally {
      flapper?.close();
    }
  });
});

/**
 * A holder that stops answering (SIGSTOP: its sockets stay open) is gone once its heartbeat
 * lapses; the second process takes the share over, and the old one, resumed, is refused.
 */
describe('one simulator per fleet share: a holder whose heartbeat lapsed', () => {
  let stack: Stack;
  let second: AppProcess | undefined;
  let stopped: number | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ apiEnv: { LINK_HEARTBEAT_MS: '300' } });
  });

  afterAll(async () => {
    if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
    await second?.stop();
    await stack?.stop();
  });

  it('is taken over with a higher epoch, and the resumed holder is refused without disturbing the new one', async () => {
    const holder = await shareOf(stack.simulator!);
    second = await startSecond(stack);
    await poll(
      'the second simulator to be refused',
      async () => ((await controlLinkOf(stack)).refused_last_minute > 0 ? true : undefined),
      10_000,
    );
    // Pings answered keep a live holder: well past one lapse (three heartbeats), it still holds.
    await chargeAll(stack, 8);
    expect((await controlLinkOf(stack)).holder).toMatchObject({
      instance: holder.instance,
      epoch: holder.epoch,
    });
    expect((await shareOf(second)).state).toBe('refused');
    stopped = stack.simulator!.pid!;
    process.kill(stopped, 'SIGSTOP');
    const taken = await holdsTheShare(second);
    expect(taken.epoch).toBeGreaterThan(holder.epoch!);
    expect(stack.api.log).toContain(
      `instance ${holder.instance} (epoch ${holder.epoch}) answers no heartbeat`,
    );
    await stack.waitLinked(3);

    process.kill(stopped, 'SIGCONT');
    stopped = undefined;
    const resumed = await poll(
      'the resumed holder to be refused',
      async () => {
        const share = await shareOf(stack.simulator!);
        return share.state === 'refused' ? share : undefined;
      },
      15_000,
    );
    expect(resumed.epoch).toBeNull();
    expect((await controlLinkOf(stack)).holder).toMatchObject({
      instance: taken.instance,
      epoch: taken.epoch,
    });
    await chargeAll(stack, 8);
  });
});
