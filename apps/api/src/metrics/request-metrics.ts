import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { CALLER_GONE_STATUS } from '@tps/http';
import { UNROUTED, type ApiMetrics } from './api-metrics';

const STARTED = Symbol('requestStarted');

type Timed = Request & { [STARTED]?: number };

/**
 * Counts and times every request by method, route template and status once: when its answer has
 * gone, or when its caller hung up first (499). Requests no route matched (a 404, a static file,
 * a preflight, a drain's refusal) are `(unrouted)`: never the raw path, which a caller chooses.
 * One pair of listener functions for all requests, so a request costs a timestamp, its labels
 * and the two updates.
 */
export function requestMetrics(
  metrics: ApiMetrics,
): (request: Request, response: Response, next: NextFunction) => void {
  function ended(this: Response): void {
    counted(this, this.statusCode);
  }
  function closed(this: Response): void {
    if (!this.writableFinished) counted(this, CALLER_GONE_STATUS);
  }
  function counted(response: Response, status: number): void {
    const request = response.req as Timed;
    const started = request[STARTED];
    if (started === undefined) return;
    request[STARTED] = undefined;
    const route = (request.route as { path?: unknown } | undefined)?.path;
    metrics.requestEnded(
      request.method,
      typeof route === 'string' ? route : UNROUTED,
      status,
      (performance.now() - started) / 1000,
    );
  }
  return (request, response, next) => {
    (request as Timed)[STARTED] = performance.now();
    response.on('finish', ended);
    response.on('close', closed);
    next();
  };
}
