import type { NextFunction, Request, Response } from 'express';
import { ContractError } from '@tps/domain';

/**
 * 503 INT-002 (contract, "Several replicas"): this replica is stopping, so it took
 * nothing; the same request, sent again, reaches another replica.
 */
export class ReplicaStoppingError extends ContractError {
  override readonly retryAfterSeconds = 1;

  constructor() {
    super('INT-002', 'this replica is shutting down and took nothing; retry (another replica serves it)');
  }
}

/**
 * Not counted, and not refused: liveness and readiness answer for themselves (a stopping replica
 * is not live: 503), and the console's live stream never ends by itself (it is closed with the
 * server, not waited for).
 */
const UNCOUNTED_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/sandbox/events']);

/**
 * What a stopping replica still owes: it counts the requests under way, and once `start` is
 * called it refuses new ones (with `Connection: close`, so that a client or a balancer with a
 * kept-alive connection opens its next one elsewhere) and tells when the last one has ended.
 */
export class RequestDrain {
  private inFlight = 0;
  private draining = false;
  private readonly idleWaiters: Array<() => void> = [];

  get isDraining(): boolean {
    return this.draining;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (UNCOUNTED_PATHS.has(request.path)) return next();
    if (this.draining) {
      response.setHeader('Connection', 'close');
      next(new ReplicaStoppingError());
      return;
    }
    this.inFlight += 1;
    // 'close' comes once per answer, sent or cut off.
    response.once('close', () => this.ended());
    next();
  };

  start(): void {
    this.draining = true;
  }

  /** Resolves true once nothing is in flight, false if `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private ended(): void {
    this.inFlight -= 1;
    if (this.inFlight > 0) return;
    for (const waiter of this.idleWaiters.splice(0)) waiter();
  }
}
