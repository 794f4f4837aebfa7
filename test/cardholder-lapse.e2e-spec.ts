import { randomUUID } from 'node:crypto';
import { FINAL_STATUSES, poll, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

type Event = Record<string, any>;

/** Short, so that the lapse of contract §15 happens within the test; the default is 10 minutes. */
const LAPSE_MS = 2000;
const WAIT_MS = 30_000;

jest.setTimeout(120_000);

describe('cardholder manual lapses back to auto (contract §15)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ apiEnv: { CARDHOLDER_MANUAL_LAPSE_MS: String(LAPSE_MS) } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const record = async (serial: string): Promise<Event | undefined> =>
    (await stack.client().get<Event[]>('/sandbox/terminals')).body.find((t) => t.serialNumber === serial);

  it('the record tells since when and from which address manual was set, and when it lapses', async () => {
    const before = Date.now();
    const manual = await stack
      .client()
      .patch<Event>('/sandbox/terminals/SIM0000002', { cardholder: 'manual' });
    expect(manual.status).toBe(200);
    expect(manual.body.cardholder).toBe('manual');
    const { setAt, setFrom, lapsesAt } = manual.body.cardholderManual;
    expect(Date.parse(setAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(lapsesAt) - Date.parse(setAt)).toBe(LAPSE_MS);
    expect(setFrom).toMatch(/127\.0\.0\.1$/);
    expect((await record('SIM0000001'))?.cardholderManual).toBeNull();
  });

  it('after the lapse the record is auto again and a charge runs its scenario without a card action', async () => {
    await poll(
      'SIM0000002 to lapse to auto',
      async () => {
        const terminal = await record('SIM0000002');
        return terminal?.cardholder === 'auto' && terminal.cardholderManual === null ? true : undefined;
      },
      WAIT_MS,
    );
    const hook = `/hook/${randomUUID()}`;
    const charge = await stack
      .client()
      .post('/terminal/v1/SIM0000002/async/charge', scenarioBody('00', receiver.url(hook)));
    expect(charge.status).toBe(200);
    // Still manual on the terminal, this would wait 60 s for a card and end TER-101.
    await receiver.waitFor(
      (all) => all.some((r) => r.path === hook && FINAL_STATUSES.includes((r.body as Event).status)),
      90_000,
    );
    expect(receiver.bodies<Event>(hook).map((e) => e.status)).toEqual([
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
  });
});
