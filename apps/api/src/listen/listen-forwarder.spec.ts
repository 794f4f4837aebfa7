import { sendPrintCallback } from '@tps/delivery';
import { InProcessMessagePort } from '@tps/messaging';
import { validateApiConfig } from '../config/api-config';
import type { ApiTopics } from '../messages/api-messages';
import { ListenerPresence } from './listener-presence';
import { ListenForwarder } from './listen-forwarder';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

/** A hosted sandbox: its address policy refuses a loopback URL before anything is sent. */
const HOSTED = validateApiConfig({ HOSTED_MODE: 'true' });
const REFUSED_URL = 'http://127.0.0.1:9/print';
const PAYLOAD = { printJobId: 'job-1', status: 'COMPLETED' as const, externalReference: '' };

/** The message port, with listeners `answers` (id → status) standing in for the listen sockets. */
function world(answers: Record<string, number>) {
  const messages = new InProcessMessagePort<ApiTopics>((topic, error) => {
    throw new Error(`${topic}: ${String(error)}`);
  });
  const presence = new ListenerPresence(messages);
  const copies: string[] = [];
  for (const listenerId of Object.keys(answers)) {
    messages.publish('listen.presence', { merchantId: 'm1', listenerId, open: true });
  }
  messages.subscribe('listen.attempt', ({ attemptId, post }) => {
    for (const [listenerId, statusCode] of Object.entries(answers)) {
      copies.push(`${listenerId} ${post.url}`);
      setImmediate(() =>
        messages.publish('listen.answer', {
          attemptId,
          listenerId,
          result: { outcome: { statusCode }, latencyMs: 2, answerExcerpt: '' },
        }),
      );
    }
  });
  return { forwarder: new ListenForwarder(messages, presence, HOSTED), copies };
}

describe('ListenForwarder.callback: a print callback while the merchant listens (contract §6.1)', () => {
  it('is the plain transport when no connection is open', () => {
    expect(world({}).forwarder.callback('m1', 15_000, new AbortController().signal)).toBeUndefined();
  });

  it("to a URL the policy refuses: sent to nobody there, the listeners' first 2xx is the outcome", async () => {
    const { forwarder, copies } = world({ a: 500, b: 202 });
    const copied = forwarder.callback('m1', 15_000, new AbortController().signal)!;
    const outcome = await sendPrintCallback(REFUSED_URL, PAYLOAD, { timeoutMs: 15_000, fetch: copied.fetch });
    expect(outcome).toMatchObject({ statusCode: 202, error: null });
    expect(copies).toEqual([`a ${REFUSED_URL}`, `b ${REFUSED_URL}`]);
    expect(copied.listeners()).toEqual({
      answered: [
        { outcome: { statusCode: 500 }, latencyMs: 2 },
        { outcome: { statusCode: 202 }, latencyMs: 2 },
      ],
    });
  });
});
