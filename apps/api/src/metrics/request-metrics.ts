import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { ApiMetrics } from './api-metrics';

const STARTED = Symbol('requestStarted');

type Timed = Request & { [STARTED]?: number };

/** Requests no route matched (a 404, a static file, a preflight): never the raw path, which a caller chooses. */
const UNROUTED = '(unrouted)';

/**
 * Counts and times every answered request by method, route template and status. One listener
 * function for all requests, so a request costs a timestamp, its labels and the two updates.
 */
export function requestMetrics(
  metrics: ApiMetrics,
): (request: Request, response: Response, next: NextFunction) => void {
  function ended(this: Response): void {
    const request = this.req as Timed;
    const started = request[STARTED];
    if (started === undefined) return;
    const route = (request.route as { path?: unknown } | undefined)?.path;
    metrics.requestEnded(
      request.method,
      typeof route === 'string' ? route : UNROUTED,
      this.statusCode,
      (performance.now() - started) / 1000,
    );
  }
  return (request, response, next) => {
    (request as Timed)[STARTED] = performance.now();
    response.on('finish', ended);
    next();
  };
}
