import { createLogRoot } from './log-root';
import { logSettingsFrom } from './log-settings';
import { PinoNestLogger } from './nest-logger';

function capture(level = 'info'): { logger: PinoNestLogger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const root = createLogRoot(
    logSettingsFrom({ LOG_LEVEL: level }),
    { app: 'api', replica: 'r1' },
    { write: (line: string) => written.push(line) },
  );
  return {
    logger: new PinoNestLogger(root),
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('PinoNestLogger', () => {
  it('writes one JSON line per call with its context, app, replica and an ISO time', () => {
    const { logger, lines } = capture();
    logger.log('listening on port 3000', 'API');
    expect(lines()).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        app: 'api',
        replica: 'r1',
        context: 'API',
        msg: 'listening on port 3000',
      },
    ]);
  });

  it('takes an object of fields, its msg as the message', () => {
    const { logger, lines } = capture();
    logger.log({ msg: 'SIM1 charge 16.00 APPROVAL', merchant_id: 'm1', duration_ms: 12 }, 'Payments');
    expect(lines()[0]).toMatchObject({
      context: 'Payments',
      msg: 'SIM1 charge 16.00 APPROVAL',
      merchant_id: 'm1',
      duration_ms: 12,
    });
  });

  it("reads Nest's (message, stack, context) for errors", () => {
    const { logger, lines } = capture();
    logger.error('boom', 'Error: boom\n    at x (y.js:1:2)', 'ExceptionsHandler');
    logger.error('plain', undefined, 'Errors');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'boom',
        context: 'ExceptionsHandler',
        stack: expect.any(String),
      }),
      expect.objectContaining({ level: 'error', msg: 'plain', context: 'Errors' }),
    ]);
    expect(lines()[1]).not.toHaveProperty('stack');
  });

  it("puts Nest's start-up chatter at debug and honours LOG_LEVEL", () => {
    const info = capture();
    info.logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    info.logger.debug('detail', 'Payments');
    expect(info.lines()).toEqual([]);
    const debug = capture('debug');
    debug.logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(debug.lines()).toEqual([expect.objectContaining({ level: 'debug', context: 'RouterExplorer' })]);
  });

  it('redacts secrets, signatures, Authorization and card numbers given as fields', () => {
    const { logger, lines } = capture();
    logger.warn(
      {
        msg: 'fields',
        secret_key: 'sk-1',
        headers: { authorization: 'Basic abc', 'webhook-signature': 'v1,xyz' },
        card: { pan: '4242424242424242' },
        webhook_secret: 'whsec_1',
      },
      'Test',
    );
    const line = JSON.stringify(lines()[0]);
    for (const value of ['sk-1', 'Basic abc', 'v1,xyz', '4242424242424242', 'whsec_1']) {
      expect(line).not.toContain(value);
    }
  });
});

describe('logSettingsFrom', () => {
  it('defaults to JSON at info and refuses an unknown format or level', () => {
    expect(logSettingsFrom({})).toEqual({ format: 'json', level: 'info' });
    expect(logSettingsFrom({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' })).toEqual({
      format: 'pretty',
      level: 'debug',
    });
    expect(() => logSettingsFrom({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(() => logSettingsFrom({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
