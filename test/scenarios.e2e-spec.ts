import { randomUUID } from 'node:crypto';
import { FINAL_STATUSES, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

type Event = Record<string, any>;

/** The scenario waits (95: 10 s, 97: 60 s) scaled by the test-only knob, so the suite need not sleep. */
const SCENARIO_WAIT_SCALE = 0.05;

interface Row {
  ending: string;
  later: string[];
  /** interaction_attempt and reading_type of each later event. */
  reads: Array<[number, string] | null>;
  failure?: Record<string, unknown>;
}

const approvedAs = (reading: string): Array<[number, string]> => [
  [1, reading],
  [1, reading],
  [1, reading],
];
const approvedPath = ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'];
const declinedPath = ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'DECLINED'];

const ROWS: Row[] = [
  ...['05', '51', '54', '55', '61'].map((code) => ({
    ending: code,
    later: declinedPath,
    reads: approvedAs('CHIP'),
    failure: { type: 'ACQUIRER', code, message: expect.any(String) },
  })),
  { ending: '07', later: approvedPath, reads: approvedAs('CHIP') },
  { ending: '08', later: approvedPath, reads: approvedAs('CONTACTLESS') },
  { ending: '09', later: approvedPath, reads: approvedAs('MAGNETIC_STRIPE') },
  ...[
    ['91', 'TER-101'],
    ['92', 'TER-102'],
    ['96', 'TER-103'],
  ].map(([ending, code]) => ({
    ending,
    later: ['TERMINAL_REJECTED'],
    reads: [null],
    failure: { type: 'TERMINAL', code, message: expect.any(String) },
  })),
  {
    ending: '93',
    later: ['CARD_PRESENTED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'],
    reads: [
      [1, 'CHIP'],
      [2, 'CONTACTLESS'],
      [2, 'CONTACTLESS'],
      [2, 'CONTACTLESS'],
    ],
  },
  {
    ending: '94',
    later: ['CARD_PRESENTED', 'TERMINAL_CANCELED'],
    reads: [
      [1, 'CHIP'],
      [1, 'CHIP'],
    ],
  },
  { ending: '95', later: approvedPath, reads: approvedAs('CHIP') },
  {
    ending: '97',
    later: ['TERMINAL_REJECTED'],
    reads: [null],
    failure: { type: 'TERMINAL', code: 'TER-101', message: expect.any(String) },
  },
  { ending: '00', later: approvedPath, reads: approvedAs('CHIP') },
];

describe('the scenarios of contract §10, async, end to end', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ simulatorEnv: { SCENARIO_WAIT_SCALE: String(SCENARIO_WAIT_SCALE) } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  /** Runs one charge to its end; answers the acknowledgement and every webhook, in order. */
  async function run(path: string, ending: string): Promise<{ body: Event; stream: Event[] }> {
    const hook = `/hook/${randomUUID()}`;
    const body = scenarioBody(ending, receiver.url(hook));
    const response = await stack.client().post<Event>(path, body);
    expect(response.status).toBe(200);
    await receiver.waitFor((all) =>
      all.some((r) => r.path === hook && FINAL_STATUSES.includes((r.body as Event).status)),
    );
    return { body, stream: [response.body, ...receiver.bodies<Event>(hook)] };
  }

  it.each(ROWS.map((row) => [row.ending, row]))(
    'total ending in %s: exact events and fields',
    async (_ending, row) => {
      const { body, stream } = await run('/terminal/v1/SIM0000002/async/charge', row.ending);
      expect(stream.map((e) => e.status)).toEqual(['TERMINAL_ACKNOWLEDGED', ...row.later]);
      stream.forEach((event, i) => {
        expect(event.previous_status).toBe(i === 0 ? '' : stream[i - 1].status);
        expect(event.client_transaction_id).toBe(body.client_transaction_id);
        expect(event.terminal.serialNumber).toBe('SIM0000002');
        expect(event.operation).toMatchObject({
          type: 'charge',
          clientTransactionId: body.client_transaction_id,
        });
      });
      expect(stream[0]).not.toHaveProperty('interaction_attempt');
      expect(stream[0]).not.toHaveProperty('reading_type');
      stream.slice(1).forEach((event, i) => {
        const read = row.reads[i];
        if (read === null) {
          expect(event).not.toHaveProperty('interaction_attempt');
          expect(event).not.toHaveProperty('reading_type');
        } else {
          expect([event.interaction_attempt, event.reading_type]).toEqual(read);
        }
      });
      const last = stream.at(-1) as Event;
      if (row.failure === undefined) {
        stream.forEach((event) => expect(event).not.toHaveProperty('failure_reason'));
      } else {
        expect(last.failure_reason).toEqual(row.failure);
        stream.slice(0, -1).forEach((event) => expect(event).not.toHaveProperty('failure_reason'));
      }
      expect(new Set(stream.map((e) => e.event_id)).size).toBe(stream.length);
    },
  );

  it('95: the acquirer answer waits its scenario wait even at instant pace', async () => {
    const { stream } = await run('/terminal/v1/SIM0000002/async/charge', '95');
    const requested = stream.find((e) => e.status === 'APPROVAL_REQUESTED') as Event;
    const approved = stream.find((e) => e.status === 'APPROVAL') as Event;
    const waited = Date.parse(approved.occurred_at) - Date.parse(requested.occurred_at);
    expect(waited).toBeGreaterThanOrEqual(10_000 * SCENARIO_WAIT_SCALE);
  });

  it('97: waits at TERMINAL_ACKNOWLEDGED for its scenario wait before TER-101, even at instant pace', async () => {
    const { stream } = await run('/terminal/v1/async/charge', '97');
    const waited = Date.parse(stream[1].occurred_at) - Date.parse(stream[0].occurred_at);
    expect(stream.map((e) => e.status)).toEqual(['TERMINAL_ACKNOWLEDGED', 'TERMINAL_REJECTED']);
    expect(waited).toBeGreaterThanOrEqual(60_000 * SCENARIO_WAIT_SCALE);
  });

  it('the Local form runs the same table (51 declined on the bound terminal)', async () => {
    const { stream } = await run('/terminal/v1/async/charge', '51');
    expect(stream.map((e) => e.status)).toEqual(['TERMINAL_ACKNOWLEDGED', ...declinedPath]);
    expect((stream.at(-1) as Event).failure_reason).toMatchObject({ type: 'ACQUIRER', code: '51' });
    expect(stream[0].terminal.serialNumber).toBe('SIM0000001');
  });
});
