import { randomUUID } from 'node:crypto';
import { FINAL_STATUSES, OTHER_MERCHANT, poll, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

type Event = Record<string, any>;

const RECORD_KEYS = [
  'cardholder',
  'cardholderManual',
  'link',
  'model',
  'pace',
  'printer',
  'room',
  'serialNumber',
  'wifiMac',
];

describe('sandbox terminals: create, list, offline and online', () => {
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

  async function charge(serial: string): Promise<Event[]> {
    const hook = `/hook/${randomUUID()}`;
    const response = await stack
      .client()
      .post<Event>(`/terminal/v1/${serial}/async/charge`, scenarioBody('00', receiver.url(hook)));
    expect(response.status).toBe(200);
    await receiver.waitFor((all) =>
      all.some((r) => r.path === hook && FINAL_STATUSES.includes((r.body as Event).status)),
    );
    return receiver.bodies<Event>(hook);
  }

  it('adds a terminal that links up at once and takes operations', async () => {
    const created = await stack.client().post<Event>('/sandbox/terminals', {
      serial: 'LANE0042',
      pace: 'instant',
      room: 'bar',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      serialNumber: 'LANE0042',
      model: expect.any(String),
      wifiMac: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
      room: 'bar',
      pace: 'instant',
      printer: 'ok',
      cardholder: 'auto',
      cardholderManual: null,
      link: 'up',
    });
    const events = await charge('LANE0042');
    expect(events.map((e) => e.status)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    expect(events[0].terminal).toEqual({
      serialNumber: 'LANE0042',
      model: expect.any(String),
      wifiMac: created.body.wifiMac,
      room: 'bar',
    });
  });

  it('chooses a serial when none is given, with realistic pace by default', async () => {
    const created = await stack.client().post<Event>('/sandbox/terminals', {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      serialNumber: expect.stringMatching(/^SIM\d{7}$/),
      pace: 'realistic',
    });
  });

  it('lists only the caller’s fleet, with link state, pace and printer', async () => {
    const demo = await stack.client().get<Event[]>('/sandbox/terminals');
    expect(demo.status).toBe(200);
    const serials = demo.body.map((t) => t.serialNumber);
    expect(serials).toEqual(expect.arrayContaining(['SIM0000001', 'SIM0000002', 'LANE0042']));
    expect(serials).not.toContain('SIM0000003');
    for (const terminal of demo.body) expect(Object.keys(terminal).sort()).toEqual(RECORD_KEYS);
    expect(demo.body.find((t) => t.serialNumber === 'SIM0000002')).toMatchObject({
      pace: 'instant',
      link: 'up',
    });
    const other = await stack.client().as(OTHER_MERCHANT).get<Event[]>('/sandbox/terminals');
    expect(other.body.map((t) => t.serialNumber)).toEqual(['SIM0000003']);
  });

  it('refuses a taken serial (409 TER-004), bad input (400) and another merchant’s terminal (404 NF-002)', async () => {
    const taken = await stack.client().post<Event>('/sandbox/terminals', { serial: 'LANE0042' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ type: 'TERMINAL', code: 'TER-004', param: 'serial' });
    const takenByOther = await stack
      .client()
      .as(OTHER_MERCHANT)
      .post<Event>('/sandbox/terminals', { serial: 'SIM0000001' });
    expect(takenByOther.body).toMatchObject({ code: 'TER-004' });
    const badSerial = await stack.client().post<Event>('/sandbox/terminals', { serial: 'no spaces!' });
    expect(badSerial.status).toBe(400);
    expect(badSerial.body).toMatchObject({ code: 'PAR-002', param: 'serial' });
    const badPace = await stack.client().post<Event>('/sandbox/terminals', { pace: 'warp' });
    expect(badPace.body).toMatchObject({ code: 'PAR-002', param: 'pace' });
    const unknown = await stack.client().post<Event>('/sandbox/terminals', { colour: 'red' });
    expect(unknown.body).toMatchObject({ code: 'PAR-001', param: 'colour' });
    for (const path of ['/sandbox/terminals/LANE0042/offline', '/sandbox/terminals/LANE0042/online']) {
      const foreign = await stack.client().as(OTHER_MERCHANT).post<Event>(path);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: 'NF-002' });
    }
    const foreignPatch = await stack
      .client()
      .as(OTHER_MERCHANT)
      .patch<Event>('/sandbox/terminals/LANE0042', { pace: 'fast' });
    expect(foreignPatch.body).toMatchObject({ code: 'NF-002' });
  });

  it('offline: Cloud-form operations get 503 TER-001; online again, the terminal works', async () => {
    const offline = await stack.client().post<Event>('/sandbox/terminals/LANE0042/offline');
    expect(offline.status).toBe(200);
    expect(offline.body.link).toBe('offline');
    const listed = await stack.client().get<Event[]>('/sandbox/terminals');
    expect(listed.body.find((t) => t.serialNumber === 'LANE0042')?.link).toBe('offline');
    for (const [path, body] of [
      ['/terminal/v1/LANE0042/async/charge', scenarioBody('00')],
      ['/terminal/v1/LANE0042/sync/abort', {}],
      ['/terminal/v1/LANE0042/async/abort', { client_transaction_id: randomUUID() }],
    ] as const) {
      const refused = await stack.client().post<Event>(path, body);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });
    }
    const online = await stack.client().post<Event>('/sandbox/terminals/LANE0042/online');
    expect(online.status).toBe(200);
    expect(online.body.link).toBe('up');
    expect((await charge('LANE0042')).map((e) => e.status).at(-1)).toBe('APPROVAL');
  });

  it('cardholder manual: every charge waits for the card action; auto goes back to the table', async () => {
    const manual = await stack.client().patch<Event>('/sandbox/terminals/LANE0042', { cardholder: 'manual' });
    expect(manual.status).toBe(200);
    expect(manual.body.cardholder).toBe('manual');
    const bad = await stack.client().patch<Event>('/sandbox/terminals/LANE0042', { cardholder: 'robot' });
    expect(bad.body).toMatchObject({ code: 'PAR-002', param: 'cardholder' });
    const hook = `/hook/${randomUUID()}`;
    const body = scenarioBody('00', receiver.url(hook));
    expect((await stack.client().post(`/terminal/v1/LANE0042/async/charge`, body)).status).toBe(200);
    const tapped = await poll(
      'the manual terminal to wait for a card',
      async () => {
        const answer = await stack.client().post<Event>('/sandbox/terminals/LANE0042/card', {
          action: 'present',
          reading_type: 'CONTACTLESS',
        });
        return answer.status === 200 ? answer.body : undefined;
      },
      10_000,
    );
    expect(tapped).toEqual({ client_transaction_id: body.client_transaction_id, action: 'present' });
    await receiver.waitFor((all) =>
      all.some((r) => r.path === hook && (r.body as Event).status === 'APPROVAL'),
    );
    expect(receiver.bodies<Event>(hook).map((e) => [e.status, e.reading_type])).toEqual([
      ['CARD_PRESENTED', 'CONTACTLESS'],
      ['APPROVAL_REQUESTED', 'CONTACTLESS'],
      ['APPROVAL', 'CONTACTLESS'],
    ]);
    const auto = await stack.client().patch<Event>('/sandbox/terminals/LANE0042', { cardholder: 'auto' });
    expect(auto.body.cardholder).toBe('auto');
    expect((await charge('LANE0042')).map((e) => e.status).at(-1)).toBe('APPROVAL');
  });

  it('a created terminal is hosted again after the simulator restarts', async () => {
    await stack.simulator?.kill();
    await stack.startSimulator();
    await stack.waitLinked(5);
    expect((await charge('LANE0042')).map((e) => e.status).at(-1)).toBe('APPROVAL');
  });
});
