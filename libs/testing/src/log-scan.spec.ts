import { findLogLeaks, secretsOfEnv } from './log-scan';

const line = (fields: Record<string, unknown>): string => JSON.stringify({ level: 'info', ...fields });

describe('findLogLeaks', () => {
  it('passes ordinary lines: ids, timestamps in milliseconds, trace ids, serials', () => {
    const output = [
      line({
        msg: 'POST /terminal/v1/sync/charge 200 4.1 ms',
        request_id: '6f1c2b4e-1b2c-4d5e-8f90-1234567890ab',
      }),
      line({
        at_ms: 1795410000123,
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
        terminal_serial: 'SIM0000002',
      }),
      line({ msg: 'migration 1795335400000 done', amount: '116.51' }),
      // Hex ids whose digits hold a card-like run that passes the check digit.
      line({ trace_id: 'ab4242424242424242cd0e0e4736ffee', span_id: 'e5555555555554444' }),
    ].join('\n');
    expect(findLogLeaks('api', output, ['demo-secret-key'])).toEqual([]);
  });

  it('finds a secret of the run, a secret key or signature, a webhook secret and signature, an Authorization, a card number', () => {
    const hex = 'ab'.repeat(32);
    const output = [
      line({ msg: 'ok' }),
      line({ msg: 'signed with demo-secret-key' }),
      line({ key: hex }),
      line({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      line({ signature: `v1,${'A'.repeat(43)}=` }),
      line({ header: 'Basic ZGVtby1tZXJjaGFudDphYmNkZWY=' }),
      line({ pan: '4242424242424242' }),
    ].join('\n');
    const leaks = findLogLeaks('api', output, ['demo-secret-key']);
    expect(leaks.map((leak) => [leak.line, leak.what])).toEqual([
      [2, 'a secret the run used'],
      [3, 'a secret key or request signature (64 hex digits)'],
      [4, 'a webhook secret'],
      [5, 'a webhook signature'],
      [6, 'an Authorization value'],
      [7, 'a card number'],
    ]);
    // The report names where, never the whole value.
    expect(leaks.every((leak) => leak.found.length <= 7)).toBe(true);
  });

  it('never takes a trace or span id for a card number, even one of decimal digits only', () => {
    const ids = JSON.stringify({ trace_id: '4242424242424242'.repeat(2), span_id: '4242424242424242' });
    const traceparent = `00-${'4242424242424242'.repeat(2)}-4242424242424242-01`;
    expect(findLogLeaks('api', `${ids}\n${traceparent}\n`, [])).toEqual([]);
    expect(findLogLeaks('api', JSON.stringify({ note: '4242424242424242' }), [])).toHaveLength(1);
  });

  it('takes a run of digits for a card number only when its check digit holds', () => {
    expect(findLogLeaks('simulator', 'ref 4242424242424241', [])).toEqual([]);
    expect(findLogLeaks('simulator', 'ref 5555555555554444', [])).toHaveLength(1);
  });
});

describe('secretsOfEnv', () => {
  it('takes the values of secrets, keys and tokens; each key of SECRETS_KEY, not its id; no file path', () => {
    expect(
      secretsOfEnv({
        LINK_SECRET: 'test-link-secret-0123456789',
        SECRETS_KEY: `k2:${'b'.repeat(64)}, k1:${'c'.repeat(64)}`,
        SECRETS_KEY_FILE: '/tmp/api-secrets.key',
        METRICS_TOKEN: 'scrape-token-1',
        PORT: '0',
      }),
    ).toEqual(['test-link-secret-0123456789', 'b'.repeat(64), 'c'.repeat(64), 'scrape-token-1']);
  });
});
