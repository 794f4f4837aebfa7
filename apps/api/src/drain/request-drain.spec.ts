import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { ReplicaStoppingError, RequestDrain } from './request-drain';

function request(path = '/terminal/v1/sync/charge'): Request {
  return { path } as Request;
}

/** An answer as the drain sees it: headers set, made by `end`, and 'close' once its connection lets go. */
class FakeResponse extends EventEmitter {
  readonly headers: Record<string, string> = {};
  headersSent = false;
  writableEnded = false;
  statusCode = 200;
  body: unknown;

  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  getHeader(name: string): string | undefined {
    return this.headers[name];
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  json(body: unknown): void {
    this.body = body;
    this.end();
  }

  end(): void {
    this.headersSent = true;
    this.writableEnded = true;
    this.emit('close');
  }

  /** The caller hung up: the connection closes, the answer is not made yet. */
  hangUp(): void {
    this.emit('close');
  }
}

function response(): FakeResponse {
  return new FakeResponse();
}

function pass(
  drain: RequestDrain,
  answer: FakeResponse,
  next: (error?: unknown) => void,
  path?: string,
): void {
  drain.middleware(request(path), answer as unknown as Response, next as NextFunction);
}

describe('RequestDrain', () => {
  it('lets requests through and counts them until their answers close', () => {
    const drain = new RequestDrain();
    const next = jest.fn<void, [unknown?]>();
    const answer = response();
    pass(drain, answer, next);
    expect(next).toHaveBeenCalledWith();
    expect(drain.requestsInFlight).toBe(1);
    answer.end();
    expect(drain.requestsInFlight).toBe(0);
  });

  it('refuses new requests once draining, with Connection: close and 503 INT-002', () => {
    const drain = new RequestDrain();
    drain.start();
    const next = jest.fn<void, [unknown?]>();
    const answer = response();
    pass(drain, answer, next);
    const error = next.mock.calls[0][0];
    expect(error).toBeInstanceOf(ReplicaStoppingError);
    expect(error).toMatchObject({ status: 503, code: 'INT-002', retryAfterSeconds: 1 });
    expect(answer.headers.Connection).toBe('close');
    expect(drain.requestsInFlight).toBe(0);
  });

  it('counts a request whose caller hung up until its answer is made: its work goes on until then', () => {
    const drain = new RequestDrain();
    const answer = response();
    pass(drain, answer, jest.fn());
    answer.hangUp();
    expect(drain.requestsInFlight).toBe(1);
    answer.end();
    expect(drain.requestsInFlight).toBe(0);
  });

  it('closes the connections of the requests in flight once draining: after their answer, never under one', () => {
    const drain = new RequestDrain();
    const answer = response();
    pass(drain, answer, jest.fn());
    drain.start();
    expect(answer.headers.Connection).toBe('close');
  });

  it('answers what is still under way at its deadline 504 TER-002, and counts it ended', () => {
    const drain = new RequestDrain();
    const late = response();
    late.setHeader('Request-Id', 'late-1');
    const streaming = response();
    pass(drain, late, jest.fn());
    pass(drain, streaming, jest.fn());
    streaming.headersSent = true;
    drain.start();
    expect(drain.answerUnknown()).toBe(1);
    expect([late.statusCode, late.body]).toEqual([
      504,
      {
        type: 'TERMINAL',
        code: 'TER-002',
        message: expect.stringMatching(/same client_transaction_id/),
        request_id: 'late-1',
      },
    ]);
    expect(drain.requestsInFlight).toBe(1);
  });

  it('tells when the last request in flight has ended', async () => {
    const drain = new RequestDrain();
    const answers = [response(), response()];
    for (const answer of answers) pass(drain, answer, jest.fn());
    drain.start();
    let idle: boolean | undefined;
    const waiting = drain.idle(60_000).then((value) => (idle = value));
    answers[0].end();
    await Promise.resolve();
    expect(idle).toBeUndefined();
    answers[1].end();
    await waiting;
    expect(idle).toBe(true);
  });

  it('gives up waiting after its bound', async () => {
    jest.useFakeTimers();
    try {
      const drain = new RequestDrain();
      pass(drain, response(), jest.fn());
      const waiting = drain.idle(1000);
      jest.advanceTimersByTime(1000);
      await expect(waiting).resolves.toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('settled: nothing in flight, and callers no longer sending', () => {
    let now = 0;
    const clock = (): number => now;
    /** Moves the clock and the timers together. */
    const advance = async (ms: number): Promise<void> => {
      now += ms;
      await jest.advanceTimersByTimeAsync(ms);
    };

    beforeEach(() => {
      jest.useFakeTimers();
      now = 0;
    });
    afterEach(() => jest.useRealTimers());

    it('waits out the quiet time after the last request, refused ones included', async () => {
      const drain = new RequestDrain(clock);
      const answered = response();
      pass(drain, answered, jest.fn());
      answered.end();
      drain.start();
      let settled: boolean | undefined;
      void drain.settled(500, 30_000).then((value) => (settled = value));
      await advance(300);
      // A caller that had not yet seen a refusal: it is refused now, and the quiet time starts again.
      pass(drain, response(), jest.fn());
      await advance(400);
      expect(settled).toBeUndefined();
      await advance(100);
      expect(settled).toBe(true);
    });

    it('settles at once when no request came for the quiet time before the stop', async () => {
      const drain = new RequestDrain(clock);
      const answer = response();
      pass(drain, answer, jest.fn());
      answer.end();
      await advance(600);
      drain.start();
      await expect(drain.settled(500, 30_000)).resolves.toBe(true);
    });

    it('gives up when callers keep sending past its bound', async () => {
      const drain = new RequestDrain(clock);
      drain.start();
      let settled: boolean | undefined;
      void drain.settled(500, 2_000).then((value) => (settled = value));
      for (let sent = 0; sent < 10 && settled === undefined; sent += 1) {
        pass(drain, response(), jest.fn());
        await advance(250);
      }
      expect(settled).toBe(false);
    });

    it('does not count liveness and readiness checks as callers', async () => {
      const drain = new RequestDrain(clock);
      drain.start();
      let settled: boolean | undefined;
      void drain.settled(500, 30_000).then((value) => (settled = value));
      for (const path of ['/health', '/ready', '/health', '/ready']) {
        pass(drain, response(), jest.fn(), path);
        await advance(150);
      }
      expect(settled).toBe(true);
    });
  });

  it('does not wait for the live stream, which never ends by itself', async () => {
    const drain = new RequestDrain();
    pass(drain, response(), jest.fn(), '/sandbox/events');
    await expect(drain.idle(1000)).resolves.toBe(true);
  });

  it('lets liveness and readiness answer for themselves while draining', () => {
    const drain = new RequestDrain();
    drain.start();
    for (const path of ['/health', '/ready']) {
      const next = jest.fn<void, [unknown?]>();
      pass(drain, response(), next, path);
      expect(next).toHaveBeenCalledWith();
    }
  });
});
