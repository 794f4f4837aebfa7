import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { CALLER_GONE_STATUS, onAnswered, type AnsweredRequest } from './answered-requests';

/** A server whose every request passes the middleware, then is answered after `answerAfterMs`. */
function serverTelling(told: AnsweredRequest[], answerAfterMs: number): Promise<Server> {
  const middleware = onAnswered((answered) => told.push(answered));
  const server = createServer((incoming, outgoing) => {
    const req = incoming as unknown as Request;
    Object.assign(req, { originalUrl: incoming.url });
    middleware(
      req,
      outgoing as unknown as Response,
      (() => {
        setTimeout(() => outgoing.end('done'), answerAfterMs);
      }) as NextFunction,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port;

describe('onAnswered', () => {
  it('tells of an answered request once, with its status', async () => {
    const told: AnsweredRequest[] = [];
    const server = await serverTelling(told, 0);
    try {
      await fetch(`http://127.0.0.1:${portOf(server)}/a`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(told.map((answered) => [answered.path, answered.status])).toEqual([['/a', 200]]);
    } finally {
      server.close();
    }
  });

  it('tells of a request whose caller hung up before the answer, once, as 499', async () => {
    const told: AnsweredRequest[] = [];
    const server = await serverTelling(told, 200);
    try {
      const sent = request({ port: portOf(server), host: '127.0.0.1', path: '/gone' });
      sent.on('error', () => undefined);
      sent.end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      sent.destroy();
      // Past the late answer too: still one line.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(told.map((answered) => [answered.path, answered.status])).toEqual([
        ['/gone', CALLER_GONE_STATUS],
      ]);
    } finally {
      server.close();
    }
  });
});
