import type { IncomingMessage, ServerResponse } from 'node:http';
import { assignRequestId, requestIdFor, requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keeps the caller's sane id, printable ASCII up to 128 characters", () => {
    for (const sent of ['a', 'order 1234/retry-2', 'x'.repeat(128), '~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}']) {
      expect(requestIdFor(sent)).toBe(sent);
    }
  });

  it('replaces a missing, empty, too long, non-printable or repeated one with a new UUID', () => {
    const insane = [
      undefined,
      '',
      'x'.repeat(129),
      'tab\there',
      'del\x7f',
      'nul\x00',
      'ñandú',
      'line\nbreak',
      ['a', 'b'],
    ];
    for (const sent of insane) expect(requestIdFor(sent)).toMatch(UUID);
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });

  it('sets the id on the answer before the next handler runs, where the error log reads it', () => {
    const headers = new Map<string, unknown>();
    const response = {
      setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
    } as unknown as ServerResponse;
    const next = jest.fn(() => expect(requestIdOf(response)).toBe('abc-123'));
    assignRequestId({ headers: { 'request-id': 'abc-123' } } as unknown as IncomingMessage, response, next);
    expect(next).toHaveBeenCalledTimes(1);
  });
});
