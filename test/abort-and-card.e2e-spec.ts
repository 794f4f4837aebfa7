import { randomUUID } from 'node:crypto';
import { FINAL_STATUSES, OTHER_MERCHANT, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

type Event = Record<string, any>;

const CLOUD = '/terminal/v1/SIM0000002';
const LOCAL = '/terminal/v1';

describe('abort, busy terminal and the card control, end to end', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // 95 answers after 1 s and 97 gives up after 6 s: time enough to act, no long sleeps.
    stack = await Stack.start({ simulatorEnv: { SCENARIO_WAIT_SCALE: '0.1' } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function start(prefix: string, ending: string): Promise<{ id: string; hook: string }> {
    const hook = `/hook/${randomUUID()}`;
    const body = scenarioBody(ending, receiver.url(hook));
    const response = await stack.client().post<Event>(`${prefix}/async/charge`, body);
    expect(response.status).toBe(200);
    return { id: body.client_transaction_id, hook };
  }

  async function events(hook: string, until: (events: Event[]) => boolean): Promise<Event[]> {
    await receiver.waitFor(() => until(receiver.bodies<Event>(hook)));
    return receiver.bodies<Event>(hook);
  }

  const ended = (all: Event[]): boolean => all.some((e) => FINAL_STATUSES.includes(e.status));
  const reached = (status: string) => (all: Event[]) => all.some((e) => e.status === status);

  it('a busy terminal refuses another operation (TER-003) but takes an abort, which cancels (Cloud, sync)', async () => {
    const running = await start(CLOUD, '97');
    const other = await stack.client().post<Event>(`${CLOUD}/async/charge`, scenarioBody('00'));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ type: 'TERMINAL', code: 'TER-003' });

    const abort = await stack.client().post<Event>(`${CLOUD}/sync/abort`, {});
    expect(abort.status).toBe(200);
    expect(abort.body).toEqual({ client_transaction_id: running.id, status: 'TERMINAL_CANCELED' });
    const stream = await events(running.hook, ended);
    expect(stream.map((e) => [e.previous_status, e.status])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', 'TERMINAL_CANCELED'],
    ]);
    expect(stream[0]).not.toHaveProperty('failure_reason');
    const next = await start(CLOUD, '00');
    expect((await events(next.hook, ended)).map((e) => e.status).at(-1)).toBe('APPROVAL');
  });

  it('a sync abort naming its target after CARD_PRESENTED cancels it (Local form)', async () => {
    await stack.client().patch('/sandbox/terminals/SIM0000001', { pace: 'realistic' });
    try {
      const running = await start(LOCAL, '94');
      await events(running.hook, reached('CARD_PRESENTED'));
      const abort = await stack
        .client()
        .post<Event>(`${LOCAL}/sync/abort`, { target_client_transaction_id: running.id });
      expect(abort.status).toBe(200);
      expect(abort.body).toEqual({ client_transaction_id: running.id, status: 'TERMINAL_CANCELED' });
      const stream = await events(running.hook, ended);
      expect(stream.map((e) => e.status)).toEqual(['CARD_PRESENTED', 'TERMINAL_CANCELED']);
      expect(stream[1]).toMatchObject({
        previous_status: 'CARD_PRESENTED',
        interaction_attempt: 1,
        reading_type: 'CHIP',
      });
    } finally {
      await stack.client().patch('/sandbox/terminals/SIM0000001', { pace: 'instant' });
    }
  });

  it('a sync abort past APPROVAL_REQUESTED is 409 TRX-002, and the charge is approved', async () => {
    const running = await start(CLOUD, '95');
    await events(running.hook, reached('APPROVAL_REQUESTED'));
    const abort = await stack
      .client()
      .post<Event>(`${CLOUD}/sync/abort`, { target_client_transaction_id: running.id });
    expect(abort.status).toBe(409);
    expect(abort.body).toMatchObject({ type: 'TRANSACTION', code: 'TRX-002' });
    const stream = await events(running.hook, ended);
    expect(stream.map((e) => e.status)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
  });

  it('an async abort before the point of no return: its own ACK → CANCELED, and the target CANCELED', async () => {
    const running = await start(CLOUD, '97');
    const abortHook = `/hook/${randomUUID()}`;
    const abortId = randomUUID();
    const ack = await stack.client().post<Event>(`${CLOUD}/async/abort`, {
      client_transaction_id: abortId,
      target_client_transaction_id: running.id,
      events_webhook_url: receiver.url(abortHook),
    });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      status: 'TERMINAL_ACKNOWLEDGED',
      previous_status: '',
      client_transaction_id: abortId,
      operation: {
        type: 'abort',
        amount: { iva: 0, subtotalIva: 0, subtotalIva0: 0 },
        clientTransactionId: abortId,
      },
    });
    const own = await events(abortHook, ended);
    expect(own.map((e) => [e.previous_status, e.status])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', 'TERMINAL_CANCELED'],
    ]);
    expect(own[0]).not.toHaveProperty('failure_reason');
    const target = await events(running.hook, ended);
    expect(target.map((e) => [e.previous_status, e.status])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', 'TERMINAL_CANCELED'],
    ]);
  });

  it('an async abort past the point of no return: its own ACK → TERMINAL_REJECTED with TRX-002', async () => {
    const running = await start(CLOUD, '95');
    await events(running.hook, reached('APPROVAL_REQUESTED'));
    const abortHook = `/hook/${randomUUID()}`;
    const ack = await stack.client().post<Event>(`${CLOUD}/async/abort`, {
      client_transaction_id: randomUUID(),
      events_webhook_url: receiver.url(abortHook),
    });
    expect(ack.status).toBe(200);
    const own = await events(abortHook, ended);
    expect(own.map((e) => [e.previous_status, e.status])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED'],
    ]);
    expect(own[0].failure_reason).toEqual({
      type: 'TRANSACTION',
      code: 'TRX-002',
      message: expect.any(String),
    });
    const target = await events(running.hook, ended);
    expect(target.map((e) => e.status)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
  });

  it('with nothing to abort: sync 409 TRX-002 (with or without a target); async rejects with TRX-002', async () => {
    for (const body of [{}, { target_client_transaction_id: randomUUID() }]) {
      const sync = await stack.client().post<Event>(`${CLOUD}/sync/abort`, body);
      expect(sync.status).toBe(409);
      expect(sync.body).toMatchObject({ type: 'TRANSACTION', code: 'TRX-002' });
    }
    const hook = `/hook/${randomUUID()}`;
    const ack = await stack.client().post<Event>(`${LOCAL}/async/abort`, {
      client_transaction_id: randomUUID(),
      events_webhook_url: receiver.url(hook),
    });
    expect(ack.status).toBe(200);
    const own = await events(hook, ended);
    expect(own.map((e) => e.status)).toEqual(['TERMINAL_REJECTED']);
    expect(own[0].failure_reason).toMatchObject({ type: 'TRANSACTION', code: 'TRX-002' });
  });

  it('refuses bad abort bodies with contract errors', async () => {
    const noId = await stack.client().post<Event>(`${CLOUD}/async/abort`, {});
    expect(noId.status).toBe(400);
    expect(noId.body).toMatchObject({ code: 'PAR-002', param: 'client_transaction_id' });
    const badTarget = await stack
      .client()
      .post<Event>(`${CLOUD}/sync/abort`, { target_client_transaction_id: 'x' });
    expect(badTarget.body).toMatchObject({ code: 'PAR-002', param: 'target_client_transaction_id' });
    const unknown = await stack.client().post<Event>(`${CLOUD}/sync/abort`, { target: randomUUID() });
    expect(unknown.body).toMatchObject({ code: 'PAR-001', param: 'target' });
    const otherTerminal = await stack.client().post<Event>('/terminal/v1/SIM0000003/sync/abort', {});
    expect(otherTerminal.status).toBe(404);
    expect(otherTerminal.body).toMatchObject({ code: 'NF-002' });
  });

  it('97 with the card control: a card presented CONTACTLESS is read and approved', async () => {
    const running = await start(CLOUD, '97');
    const card = await stack
      .client()
      .post<Event>('/sandbox/terminals/SIM0000002/card', { action: 'present', reading_type: 'CONTACTLESS' });
    expect(card.status).toBe(200);
    expect(card.body).toEqual({ client_transaction_id: running.id, action: 'present' });
    const stream = await events(running.hook, ended);
    expect(stream.map((e) => [e.status, e.interaction_attempt, e.reading_type])).toEqual([
      ['CARD_PRESENTED', 1, 'CONTACTLESS'],
      ['APPROVAL_REQUESTED', 1, 'CONTACTLESS'],
      ['APPROVAL', 1, 'CONTACTLESS'],
    ]);
  });

  it('97 with the card control: the cardholder cancels; then nothing waits (409 TRX-006)', async () => {
    const running = await start(LOCAL, '97');
    const card = await stack.client().post<Event>('/sandbox/terminals/SIM0000001/card', { action: 'cancel' });
    expect(card.status).toBe(200);
    const stream = await events(running.hook, ended);
    expect(stream.map((e) => [e.previous_status, e.status])).toEqual([
      ['TERMINAL_ACKNOWLEDGED', 'TERMINAL_CANCELED'],
    ]);
    const again = await stack
      .client()
      .post<Event>('/sandbox/terminals/SIM0000001/card', { action: 'cancel' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: 'TRANSACTION', code: 'TRX-006' });
  });

  it('refuses bad card actions, and another merchant’s terminal is unknown', async () => {
    const noReading = await stack
      .client()
      .post<Event>('/sandbox/terminals/SIM0000002/card', { action: 'present' });
    expect(noReading.status).toBe(400);
    expect(noReading.body).toMatchObject({ code: 'PAR-002', param: 'reading_type' });
    const badReading = await stack
      .client()
      .post<Event>('/sandbox/terminals/SIM0000002/card', { action: 'present', reading_type: 'NFC' });
    expect(badReading.body).toMatchObject({ code: 'PAR-002', param: 'reading_type' });
    const badAction = await stack
      .client()
      .post<Event>('/sandbox/terminals/SIM0000002/card', { action: 'swipe' });
    expect(badAction.body).toMatchObject({ code: 'PAR-002', param: 'action' });
    const foreign = await stack
      .client()
      .as(OTHER_MERCHANT)
      .post<Event>('/sandbox/terminals/SIM0000002/card', { action: 'cancel' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NF-002' });
  });
});
