import type { ArgumentsHost } from '@nestjs/common';
import type { Response } from 'express';
import { ContractExceptionFilter } from './contract-exception.filter';

const logged: string[] = [];
const ids: string[] = [];

// Nest ships as ES modules, which Jest does not load: the filter needs only its Logger here.
jest.mock('@nestjs/common', () => ({
  Catch: () => () => undefined,
  HttpException: class HttpException extends Error {},
  Logger: class Logger {
    error(line: { msg: string; request_id?: string }): void {
      logged.push(line.msg);
      if (line.request_id !== undefined) ids.push(line.request_id);
    }
  },
}));

function answerWith(requestId: string | undefined) {
  const sent: { status?: number; body?: unknown } = {};
  const response = {
    headersSent: false,
    getHeader: (name: string) => (name.toLowerCase() === 'request-id' ? requestId : undefined),
    setHeader: () => undefined,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  } as unknown as Response;
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('ContractExceptionFilter error log', () => {
  beforeEach(() => {
    logged.length = 0;
    ids.length = 0;
  });

  it('names the request id of the answer in the line of an internal error', () => {
    const { host, sent } = answerWith('support-finds-me');
    new ContractExceptionFilter().catch(new Error('boom'), host);
    expect(sent.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^request support-finds-me: Error: boom/);
    expect(ids).toEqual(['support-finds-me']);
  });

  it('puts the id in the error body as request_id', () => {
    const { host, sent } = answerWith('support-finds-me');
    new ContractExceptionFilter().catch(new Error('boom'), host);
    expect(sent.body).toEqual({
      type: 'INTERNAL',
      code: 'INT-001',
      message: 'internal error',
      request_id: 'support-finds-me',
    });
  });

  it('logs the error alone where no id was assigned', () => {
    const { host } = answerWith(undefined);
    new ContractExceptionFilter().catch(new Error('boom'), host);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^Error: boom/);
  });
});
