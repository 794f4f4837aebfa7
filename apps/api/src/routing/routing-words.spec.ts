import { randomUUID } from 'node:crypto';
import { MAX_PAYLOAD_BYTES } from '@tps/messaging';
import { REPLY_IN_WORD_BYTES, answeredMessage } from './routing-words';

describe('answeredMessage', () => {
  const id = randomUUID();

  it('carries a small reply, as its JSON was stored', () => {
    const reply = { ok: { events: ['approved'] } };
    expect(JSON.parse(answeredMessage(id, JSON.stringify(reply)))).toEqual({ id, reply });
  });

  it('leaves a large reply out: its caller reads it from the store', () => {
    const replyJson = JSON.stringify({ ok: 'x'.repeat(REPLY_IN_WORD_BYTES) });
    expect(JSON.parse(answeredMessage(id, replyJson))).toEqual({ id });
  });

  it('a reply of the largest size told fits in a NOTIFY with its envelope', () => {
    const reply = { ok: 'x'.repeat(REPLY_IN_WORD_BYTES - JSON.stringify({ ok: '' }).length) };
    const replyJson = JSON.stringify(reply);
    // The envelope as PostgresMessagePort.wordStart starts it: origin, sequence, topic, message.
    const word = `{"o":"${randomUUID()}","n":${Number.MAX_SAFE_INTEGER},"t":"route.answered","m":${answeredMessage(id, replyJson)}}`;
    expect(Buffer.byteLength(replyJson)).toBe(REPLY_IN_WORD_BYTES);
    expect(JSON.parse(word)).toMatchObject({ m: { id, reply } });
    expect(Buffer.byteLength(word)).toBeLessThan(MAX_PAYLOAD_BYTES);
  });
});
