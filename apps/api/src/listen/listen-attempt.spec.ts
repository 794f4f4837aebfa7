import { AttemptAbandoned } from '@tps/delivery';
import { InProcessMessagePort } from '@tps/messaging';
import type { ApiTopics } from '../messages/api-messages';
import { copiesThroughListeners } from './listen-attempt';
import { PRESENCE_REPEAT_MS, PresenceBook } from './presence-book';

const POST = { url: 'http://127.0.0.1:9/hook', body: '{"event_id":"e"}', headers: { 'webhook-id': 'e' } };

function port() {
  return new InProcessMessagePort<ApiTopics>((topic, error) => {
    throw new Error(`${topic}: ${String(error)}`);
  });
}

describe('PresenceBook', () => {
  const T0 = 1_795_334_400_000;

  it('knows a merchant listens, per listener, until its last one closes', () => {
    const book = new PresenceBook();
    expect(book.isListening('m1', T0)).toBe(false);
    book.heard({ merchantId: 'm1', listenerId: 'a', open: true }, T0);
    book.heard({ merchantId: 'm1', listenerId: 'b', open: true }, T0);
    expect(book.isListening('m1', T0)).toBe(true);
    expect(book.listenersOf('m1', T0)).toEqual(['a', 'b']);
    expect(book.isListening('m2', T0)).toBe(false);
    book.heard({ merchantId: 'm1', listenerId: 'a', open: false }, T0);
    expect(book.isListening('m1', T0)).toBe(true);
    book.heard({ merchantId: 'm1', listenerId: 'b', open: false }, T0);
    expect(book.isListening('m1', T0)).toBe(false);
  });

  it('forgets a listener not heard of for three repeats (its process died without a word)', () => {
    const book = new PresenceBook();
    book.heard({ merchantId: 'm1', listenerId: 'a', open: true }, T0);
    const repeated = T0 + 2 * PRESENCE_REPEAT_MS;
    book.heard({ merchantId: 'm1', listenerId: 'a', open: true }, repeated);
    expect(book.isListening('m1', repeated + 3 * PRESENCE_REPEAT_MS)).toBe(true);
    expect(book.isListening('m1', repeated + 3 * PRESENCE_REPEAT_MS + 1)).toBe(false);
  });
});

describe('copiesThroughListeners', () => {
  afterEach(() => jest.useRealTimers());

  const result = (statusCode: number) => ({ outcome: { statusCode }, latencyMs: 4, answerExcerpt: 'ok' });

  it('publishes the attempt with the signed headers and no secret, and takes one answer per listener', async () => {
    const messages = port();
    const published: Array<ApiTopics['listen.attempt']> = [];
    messages.subscribe('listen.attempt', (attempt) => {
      published.push(attempt);
      setImmediate(() => {
        // Another attempt's answer: not this one's.
        messages.publish('listen.answer', {
          attemptId: 'someone-else',
          listenerId: 'a',
          result: result(500),
        });
        messages.publish('listen.answer', {
          attemptId: attempt.attemptId,
          listenerId: 'b',
          result: result(204),
        });
        // A listener answers its copy once; a second answer, or an unknown listener's, is not counted.
        messages.publish('listen.answer', {
          attemptId: attempt.attemptId,
          listenerId: 'b',
          result: result(500),
        });
        messages.publish('listen.answer', {
          attemptId: attempt.attemptId,
          listenerId: 'z',
          result: result(500),
        });
        messages.publish('listen.answer', {
          attemptId: attempt.attemptId,
          listenerId: 'a',
          result: result(503),
        });
      });
    });
    const copies = copiesThroughListeners(
      messages,
      'm1',
      POST,
      ['a', 'b'],
      10_000,
      new AbortController().signal,
    );
    const answers = await copies.all;
    expect(copies.answered).toEqual(answers);
    expect(answers).toEqual([result(204), result(503)]);
    expect(published).toEqual([{ attemptId: expect.any(String), merchantId: 'm1', post: POST }]);
    expect(JSON.stringify(published)).not.toContain('whsec_');
  });

  it('is a timeout for each listener that gave no answer in time', async () => {
    jest.useFakeTimers();
    const messages = port();
    messages.subscribe('listen.attempt', ({ attemptId }) =>
      messages.publish('listen.answer', { attemptId, listenerId: 'a', result: result(200) }),
    );
    const sending = copiesThroughListeners(
      messages,
      'm1',
      POST,
      ['a', 'b'],
      15_000,
      new AbortController().signal,
    );
    expect(sending.answered).toEqual([result(200)]);
    jest.advanceTimersByTime(15_000);
    expect(await sending.all).toEqual([
      result(200),
      { outcome: { error: 'timeout' }, latencyMs: 15_000, answerExcerpt: '' },
    ]);
  });

  it('is abandoned, with no outcome, when the service stops', async () => {
    const shutdown = new AbortController();
    const sending = copiesThroughListeners(port(), 'm1', POST, ['a'], 15_000, shutdown.signal);
    shutdown.abort();
    await expect(sending.all).rejects.toBeInstanceOf(AttemptAbandoned);
  });
});
