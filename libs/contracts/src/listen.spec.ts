import { parseListenAnswer } from './listen';

describe('a listener answer (contract §6.1)', () => {
  const answer = { type: 'answer', attempt_id: 'a1', latency_ms: 3, excerpt: 'ok' };

  it('is a status or an error, never both nor neither', () => {
    expect(parseListenAnswer(JSON.stringify({ ...answer, status_code: 204 }))).toEqual({
      ...answer,
      status_code: 204,
    });
    expect(parseListenAnswer(JSON.stringify({ ...answer, error: 'connection_refused' }))).toEqual({
      ...answer,
      error: 'connection_refused',
    });
    expect(parseListenAnswer(JSON.stringify(answer))).toBeNull();
    expect(parseListenAnswer(JSON.stringify({ ...answer, status_code: 200, error: 'timeout' }))).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['another type', JSON.stringify({ ...answer, type: 'delivery', status_code: 200 })],
    ['an unknown field', JSON.stringify({ ...answer, status_code: 200, secret: 'x' })],
    ['a status out of range', JSON.stringify({ ...answer, status_code: 99 })],
    ['an unknown error', JSON.stringify({ ...answer, error: 'destination_refused' })],
    ['an excerpt over 4 KB', JSON.stringify({ ...answer, status_code: 200, excerpt: 'x'.repeat(4097) })],
    ['null', 'null'],
  ])('refuses %s', (_what, text) => {
    expect(parseListenAnswer(text)).toBeNull();
  });
});
