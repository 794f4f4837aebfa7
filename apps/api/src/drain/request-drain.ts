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
 * 504 TER-002 for what still runs when the drain's time is up: its outcome is unknown, and the
 * same request asked again (same client_transaction_id) answers it (contract §19).
 */
export class DrainDeadlineError extends ContractError {
  constructor() {
    super(
      'TER-002',
      'this replica stopped before the outcome reached it; the outcome is unknown: ask again with the same client_transaction_id',
    );
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
 * called it refuses new ones and answers every one with `Connection: close` (so that a client or
 * a balancer with a kept-alive connection opens its next one elsewhere, and the connection ends
 * after an answer, never under a request), and tells when the last one has ended and its callers
 * have stopped sending. A request is under way until its answer is made, even when its caller
 * hung up first: its work goes on (and uses the database) until then.
 */
export class RequestDrain {
  /** The requests under way, each until its answer is made. */
  private readonly answers = new Set<Response>();
  private draining = false;
  /** When the last request arrived, refused ones included: a caller still sending here. */
  private lastArrival = Number.NEGATIVE_INFINITY;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(private readonly now: () => number = Date.now) {}

  get isDraining(): boolean {
    return this.draining;
  }

  get requestsInFlight(): number {
    return this.answers.size;
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (UNCOUNTED_PATHS.has(request.path)) return next();
    this.lastArrival = this.now();
    if (this.draining) {
      response.setHeader('Connection', 'close');
      next(new ReplicaStoppingError());
      return;
    }
    this.answers.add(response);
    whenAnswerMade(response, () => this.ended(response));
    next();
  };

  /** Refuses new requests from now on; the answers of those under way close their connections. */
  start(): void {
    this.draining = true;
    for (const answer of this.answers) if (!answer.headersSent) answer.setHeader('Connection', 'close');
  }

  /** Resolves true once nothing is in flight, false if `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.answers.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
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

  /**
   * The drain's time is up: each request still under way whose answer has not started is answered
   * 504 TER-002 now (outcome unknown, ask again with the same id). Returns how many were.
   */
  answerUnknown(): number {
    let answered = 0;
    for (const answer of [...this.answers]) {
      if (answer.headersSent || answer.writableEnded) continue;
      const error = new DrainDeadlineError();
      answer.setHeader('Connection', 'close');
      // The id the answer was given on arrival (contract, "Request ids").
      const id = answer.getHeader('Request-Id');
      answer.status(error.status).json(error.toBody(typeof id === 'string' ? id : undefined));
      answered += 1;
    }
    return answered;
  }

  private ended(response: Response): void {
    if (!this.answers.delete(response) || this.answers.size > 0) return;
    for (const waiter of this.idleWaiters.splice(0)) waiter();
  }
}

/**
 * Calls `made` once the answer is made (its `end` called), whether or not its caller is still
 * there: the events of the connection ('finish', 'close') tell when the bytes went or the caller
 * left, not when the request's work is over.
 */
function whenAnswerMade(response: Response, made: () => void): void {
  const end = response.end.bind(response) as (...args: unknown[]) => Response;
  let told = false;
  response.end = ((...args: unknown[]) => {
    if (!told) {
      told = true;
      made();
    }
    return end(...args);
  }) as Response['end'];
}
