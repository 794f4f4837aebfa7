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
 * kept-alive connection opens its next one elsewhere) and tells when the last one has ended and
 * its callers have stopped sending.
 */
export class RequestDrain {
  private inFlight = 0;
  private draining = false;
  /** When the last request arrived, refused ones included: a caller still sending here. */
  private lastArrival = Number.NEGATIVE_INFINITY;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(private readonly now: () => number = Date.now) {}

  get isDraining(): boolean {
    return this.draining;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (UNCOUNTED_PATHS.has(request.path)) return next();
    this.lastArrival = this.now();
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

  /**
   * Resolves true once nothing is in flight and no request has arrived for `quietMs`; false if
   * `timeoutMs` passed first. Closing as soon as nothing is in flight would cut the requests
   * callers sent on their kept-alive connections before any of them had seen a refusal: they
   * would get a reset connection for a request never read, not the 503 they retry elsewhere.
   */
  async settled(quietMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      if (!(await this.idle(deadline - this.now()))) return false;
      const quietFor = this.now() - this.lastArrival;
      if (quietFor >= quietMs) return true;
      const left = deadline - this.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - quietFor, left)));
    }
  }

  private ended(): void {
    this.inFlight -= 1;
    if (this.inFlight > 0) return;
    for (const waiter of this.idleWaiters.splice(0)) waiter();
  }
}
