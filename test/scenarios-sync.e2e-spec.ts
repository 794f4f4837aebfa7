import { randomUUID } from 'node:crypto';
import { scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

type Answer = Record<string, any>;

const PREFIXES = [
  ['Cloud', '/terminal/v1/SIM0000002'],
  ['Local', '/terminal/v1'],
] as const;

describe('the scenarios of contract §10, sync, end to end', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ simulatorEnv: { SCENARIO_WAIT_SCALE: '0.05' } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const sync = (path: string, ending: string) => stack.client().post<Answer>(path, scenarioBody(ending));

  describe.each(PREFIXES)('%s form', (_form, prefix) => {
    it.each(['charge', 'authorization'])(
      '%s: declines answer 200, approved false, with the ISO code',
      async (op) => {
        for (const code of ['05', '51', '54', '55', '61']) {
          const answer = await sync(`${prefix}/sync/${op}`, code);
          expect(answer.status).toBe(200);
          expect(answer.body).toMatchObject({
            approved: false,
            responseCode: code,
            rawResponse: { message_fields: { F39: code } },
          });
        }
      },
    );

    it.each([
      ['00', 'CREDIT', 'CHIP'],
      ['07', 'DEBIT', 'CHIP'],
      ['08', 'CREDIT', 'CONTACTLESS'],
      ['09', 'CREDIT', 'MAGNETIC_STRIPE'],
      ['93', 'CREDIT', 'CONTACTLESS'],
      ['95', 'CREDIT', 'CHIP'],
    ])('%s: approved with a %s card read %s', async (ending, cardType, entry) => {
      for (const op of ['charge', 'authorization']) {
        const answer = await sync(`${prefix}/sync/${op}`, ending);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          approved: true,
          responseCode: '00',
          cardData: { cardType, entryMode: entry === 'MAGNETIC_STRIPE' ? 'SWIPE' : entry },
          rawResponse: { card_type: cardType },
        });
      }
    });

    it.each([
      ['91', 'TER-101'],
      ['92', 'TER-102'],
      ['96', 'TER-103'],
      ['97', 'TER-101'],
      ['94', 'TER-104'],
    ])('%s: ends on the terminal, 409 TERMINAL %s', async (ending, code) => {
      for (const op of ['charge', 'authorization']) {
        const answer = await sync(`${prefix}/sync/${op}`, ending);
        expect(answer.status).toBe(409);
        expect(answer.body).toMatchObject({ type: 'TERMINAL', code, message: expect.any(String) });
      }
    });
  });

  it('a sync charge waiting for a person (97) is aborted: it answers 409 TER-104, the abort 200', async () => {
    const body = scenarioBody('97');
    const charge = stack.client().post<Answer>('/terminal/v1/sync/charge', body);
    const abort = await poll(async () => {
      const answer = await stack.client().post<Answer>('/terminal/v1/sync/abort', {
        target_client_transaction_id: body.client_transaction_id,
      });
      return answer.status === 200 ? answer : undefined;
    });
    expect(abort.body).toEqual({
      client_transaction_id: body.client_transaction_id,
      status: 'TERMINAL_CANCELED',
    });
    const answer = await charge;
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ type: 'TERMINAL', code: 'TER-104' });
  });

  it('a sync charge waiting for a person takes the card control and is approved', async () => {
    const body = scenarioBody('97');
    const charge = stack.client().post<Answer>('/terminal/v1/SIM0000002/sync/charge', body);
    await poll(async () => {
      const answer = await stack.client().post<Answer>('/sandbox/terminals/SIM0000002/card', {
        action: 'present',
        reading_type: 'CONTACTLESS',
      });
      return answer.status === 200 ? answer : undefined;
    });
    const answer = await charge;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ approved: true, cardData: { entryMode: 'CONTACTLESS' } });
  });

  /** Retries until the terminal has taken the charge (the abort or card finds it waiting). */
  async function poll<T>(probe: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`gave up (${randomUUID()})`);
  }
});
