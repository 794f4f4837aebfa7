import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { poll, scenarioBody, sqliteRows, Stack, WebhookReceiver } from '@tps/testing';

type Event = Record<string, any>;

interface QueuedRow {
  event_id: string;
  client_transaction_id: string;
  status: string;
  acked: number;
}

describe('the offline drill: the queue survives a crash and replays in order', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const terminalQueue = (): Promise<QueuedRow[]> =>
    sqliteRows<QueuedRow>(
      join(stack.dir, 'terminal.sqlite'),
      `SELECT event_id, json_extract(envelope, '$.client_transaction_id') AS client_transaction_id,
              json_extract(envelope, '$.status') AS status, acked
       FROM terminal_events WHERE serial_number = 'SIM0000001' ORDER BY seq`,
    );

  it('offline; three Local-form charges; no webhook; SIGKILL and restart; online; every event, in order, once', async () => {
    const offline = await stack.client().post<Event>('/sandbox/terminals/SIM0000001/offline');
    expect(offline.status).toBe(200);
    expect(offline.body).toMatchObject({ serialNumber: 'SIM0000001', link: 'offline' });

    const cloud = await stack
      .client()
      .post<Event>('/terminal/v1/SIM0000001/async/charge', scenarioBody('00'));
    expect(cloud.status).toBe(503);
    expect(cloud.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });

    // Local form: the point of sale reaches the terminal on its own network.
    const charges: Array<{ id: string; hook: string; ack: Event }> = [];
    for (let i = 0; i < 3; i++) {
      const hook = `/drill/${i}/${randomUUID()}`;
      const body = scenarioBody('00', receiver.url(hook));
      const ack = await poll(
        'the terminal to take the next Local-form charge',
        async () => {
          const response = await stack.client().post<Event>('/terminal/v1/async/charge', body);
          return response.status === 409 && response.body.code === 'TER-003' ? undefined : response;
        },
        10_000,
      );
      expect(ack.status).toBe(200);
      expect(ack.body.status).toBe('TERMINAL_ACKNOWLEDGED');
      charges.push({ id: body.client_transaction_id, hook, ack: ack.body });
    }
    const ids = charges.map((c) => c.id);

    // The terminal finished all three; every event waits in its queue, and none reached a webhook.
    await poll(
      'the three charges to end on the terminal',
      async () => {
        const rows = await terminalQueue();
        return rows.filter((r) => r.status === 'APPROVAL').length === 3 ? rows : undefined;
      },
      10_000,
    );
    expect(receiver.received).toEqual([]);

    await stack.simulator?.kill();
    const queued = (await terminalQueue()).filter((r) => ids.includes(r.client_transaction_id));
    expect(queued).toHaveLength(12);
    expect(queued.every((r) => r.acked === 0)).toBe(true);

    await stack.startSimulator();
    await stack.waitLinked(2);
    const fleet = await stack.client().get<Event[]>('/sandbox/terminals');
    expect(fleet.body.find((t) => t.serialNumber === 'SIM0000001')?.link).toBe('offline');
    expect(receiver.received).toEqual([]);

    const online = await stack.client().post<Event>('/sandbox/terminals/SIM0000001/online');
    expect(online.status).toBe(200);
    expect(online.body.link).toBe('up');

    await receiver.waitFor((all) => all.length >= 9, 15_000);
    // Every queued event acknowledged by the service, as committed in the terminal's own file.
    const stored = await poll(
      'the terminal queue to be acknowledged',
      async () => {
        const rows = (await terminalQueue()).filter((r) => ids.includes(r.client_transaction_id));
        return rows.every((r) => r.acked === 1) ? rows : undefined;
      },
      10_000,
    );
    expect(stored).toHaveLength(12);
    expect(receiver.received).toHaveLength(9);

    const delivered = receiver.bodies<Event>();
    expect(new Set(delivered.map((e) => e.event_id)).size).toBe(9);
    for (const charge of charges) {
      const events = receiver.bodies<Event>(charge.hook);
      const stream = [charge.ack, ...events];
      expect(stream.map((e) => e.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
      stream.forEach((event, i) => {
        expect(event.client_transaction_id).toBe(charge.id);
        expect(event.previous_status).toBe(i === 0 ? '' : stream[i - 1].status);
      });
      // None lost, none duplicated: exactly the terminal's own events, in its order.
      expect(stream.map((e) => e.event_id)).toEqual(
        stored.filter((r) => r.client_transaction_id === charge.id).map((r) => r.event_id),
      );
    }
  });
});
