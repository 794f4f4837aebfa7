import { DEMO_MERCHANT, OTHER_MERCHANT, poll, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';
import { LiveReader, type Message } from './live-reader';

describe('live stream of the merchant’s activity (GET /sandbox/events)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  const readers: LiveReader[] = [];

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    for (const reader of readers) reader.close();
    await receiver?.close();
    await stack?.stop();
  });

  async function open(credentials = DEMO_MERCHANT): Promise<LiveReader> {
    const reader = await LiveReader.open(stack.apiUrl, credentials);
    readers.push(reader);
    return reader;
  }

  it('refuses an unsigned request with the contract error body', async () => {
    const response = await fetch(`${stack.apiUrl}/sandbox/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'AUTH-001' });
  });

  it('streams each stored event and each webhook attempt of the merchant, and nothing of another', async () => {
    const demo = await open();
    const other = await open(OTHER_MERCHANT);
    expect(demo.status).toBe(200);
    await demo.waitFor('hello', (all) => all.some((m) => m.type === 'hello'));
    await other.waitFor('hello', (all) => all.some((m) => m.type === 'hello'));

    const body = scenarioBody('51', receiver.url('/live'));
    expect((await stack.client().post('/terminal/v1/SIM0000002/async/charge', body)).status).toBe(200);
    const ours = (m: Message): boolean =>
      m.event?.client_transaction_id === body.client_transaction_id ||
      m.client_transaction_id === body.client_transaction_id;
    await demo.waitFor('the decline and its delivered webhooks', (all) => {
      const events = all.filter((m) => m.type === 'event' && ours(m));
      const deliveries = all.filter((m) => m.type === 'delivery' && ours(m));
      return events.some((m) => m.event.status === 'DECLINED') && deliveries.length >= 3;
    });
    const events = demo.messages.filter((m) => m.type === 'event' && ours(m));
    expect(events.map((m) => m.event.status)).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'DECLINED',
    ]);
    expect(events[0].serial).toBe('SIM0000002');
    expect(events[3].event.failure_reason).toMatchObject({ code: '51' });
    expect(other.messages.filter(ours)).toEqual([]);
  });

  it('prints one line per payment outcome on the API console: terminal, operation, amount, outcome, ms', async () => {
    await poll(
      'the outcome line',
      async () =>
        /Payments\]? .*SIM0000002 charge 116\.51 DECLINED 51 \d+ ms/.test(stack.api.text) ? true : undefined,
      10_000,
    );
  });

  it('streams print job changes with the commands, so the console can draw the paper', async () => {
    const demo = await open();
    await demo.waitFor('hello', (all) => all.some((m) => m.type === 'hello'));
    const created = await stack.client().post<Message>('/terminal/v1/SIM0000002/print', {
      commands: [
        { type: 'text', value: 'LIVE STORE', align: 'center', bold: true },
        { type: 'qr', value: 'https://example.com/r/1' },
      ],
    });
    expect(created.status).toBe(202);
    await demo.waitFor('the completed print job', (all) =>
      all.some(
        (m) =>
          m.type === 'print' && m.job.printJobId === created.body.printJobId && m.job.status === 'COMPLETED',
      ),
    );
    const completed = demo.messages.find((m) => m.type === 'print' && m.job.status === 'COMPLETED');
    expect(completed?.job.commands[0]).toEqual({
      type: 'text',
      value: 'LIVE STORE',
      align: 'center',
      bold: true,
    });
    expect(completed?.job.printedText).toContain('LIVE STORE');
  });
});
