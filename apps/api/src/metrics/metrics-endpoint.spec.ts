import type { IncomingMessage } from 'node:http';
import { bearerMatches } from './metrics-endpoint';

const request = (authorization?: string): IncomingMessage =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('the metrics bearer token', () => {
  const token = 'metrics-token-0123456789';

  it('matches only "Bearer " followed by the token itself', () => {
    expect(bearerMatches(request(`Bearer ${token}`), token)).toBe(true);
    expect(bearerMatches(request(), token)).toBe(false);
    expect(bearerMatches(request(token), token)).toBe(false);
    expect(bearerMatches(request(`bearer ${token}`), token)).toBe(false);
    expect(bearerMatches(request(`Bearer ${token}x`), token)).toBe(false);
    expect(bearerMatches(request(`Bearer ${token.slice(1)}`), token)).toBe(false);
    expect(bearerMatches(request('Bearer '), token)).toBe(false);
  });
});
