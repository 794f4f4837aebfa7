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

/**
 * The status a request is told with when its caller hung up before its answer went (nginx's
 * "client closed request"): it still has its one log line, and its count.
 */
export const CALLER_GONE_STATUS = 499;

const ARRIVED = Symbol('requestArrived');
type Timed = Request & { [ARRIVED]?: { at: Date; started: number } };

/**
 * Middleware that tells `listener` of every request once, after its answer has gone (so that
 * the guard's merchant and the route are known), or when its caller hung up first (status 499).
 * One pair of listener functions for all requests.
 */
export function onAnswered(
  listener: (answered: AnsweredRequest, request: Request) => void,
): (request: Request, response: Response, next: NextFunction) => void {
  function ended(this: Response): void {
    told(this, this.statusCode);
  }
  function closed(this: Response): void {
    if (!this.writableFinished) told(this, CALLER_GONE_STATUS);
  }
  function told(response: Response, status: number): void {
    const request = response.req as Timed;
    const arrived = request[ARRIVED];
    if (arrived === undefined) return;
    request[ARRIVED] = undefined;
    const route = (request.route as { path?: unknown } | undefined)?.path;
    listener(
      {
        at: arrived.at,
        method: request.method,
        route: typeof route === 'string' ? route : undefined,
        path: request.originalUrl,
        status,
        durationMs: Math.round((performance.now() - arrived.started) * 10) / 10,
        requestId: requestIdOf(response),
      },
      request,
    );
  }
  return (request, response, next) => {
    (request as Timed)[ARRIVED] = { at: new Date(), started: performance.now() };
    response.on('finish', ended);
    response.on('close', closed);
    next();
  };
}
