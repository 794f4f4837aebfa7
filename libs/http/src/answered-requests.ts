import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-id';

/** A request once its answer has gone: what a log line and a merchant's request log show of it. */
export interface AnsweredRequest {
  /** When it arrived (the real clock). */
  at: Date;
  method: string;
  /** The route's template (`/terminal/v1/:terminalSerial/sync/charge`), or undefined when none matched. */
  route: string | undefined;
  /** The request target as sent, query string included. */
  path: string;
  status: number;
  /** Tenths of a millisecond at most: a short number in a log line. */
  durationMs: number;
  requestId: string | undefined;
}

const ARRIVED = Symbol('requestArrived');
type Timed = Request & { [ARRIVED]?: { at: Date; started: number } };

/**
 * Middleware that tells `listener` of every answered request, after its answer has gone (so that
 * the guard's merchant and the route are known). One listener function for all requests.
 */
export function onAnswered(
  listener: (answered: AnsweredRequest, request: Request) => void,
): (request: Request, response: Response, next: NextFunction) => void {
  function ended(this: Response): void {
    const request = this.req as Timed;
    const arrived = request[ARRIVED];
    if (arrived === undefined) return;
    const route = (request.route as { path?: unknown } | undefined)?.path;
    listener(
      {
        at: arrived.at,
        method: request.method,
        route: typeof route === 'string' ? route : undefined,
        path: request.originalUrl,
        status: this.statusCode,
        durationMs: Math.round((performance.now() - arrived.started) * 10) / 10,
        requestId: requestIdOf(this),
      },
      request,
    );
  }
  return (request, response, next) => {
    (request as Timed)[ARRIVED] = { at: new Date(), started: performance.now() };
    response.on('finish', ended);
    next();
  };
}
