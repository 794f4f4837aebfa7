import type { Static, TSchema } from '@sinclair/typebox';
import { WebSocket } from 'ws';
import { ContractError, type ErrorBody } from '@tps/domain';
import { parseFrame, type Frame } from './frames';
import type { LinkSide } from './link-checks';
import type { MessageCheck, Refusal } from './schema/message-check';

export interface LinkHandlers<R extends TSchema, N extends TSchema> {
  /**
   * What this end takes from the other. A request that fails its check is answered with the
   * contract's error body (PAR-001, PAR-002) and a notice that fails is dropped, each with one
   * line to `onUnexpected`; neither reaches the handlers below.
   */
  side: LinkSide<R, N>;
  /** Answers a request; a thrown ContractError goes back as its error body. */
  onRequest(body: Static<R>): Promise<unknown>;
  /** Answer requests strictly one after another (a terminal's events); else concurrently. */
  ordered?: boolean;
  onNotice?(body: Static<N>): void;
  onClose?(): void;
  /** The other end answered a ping: it is alive (a heartbeat). */
  onPong?(): void;
}

const UNAVAILABLE = {
  closed: 'link closed',
  timeout: 'no reply in time',
  unreadable: 'the reply failed its schema',
} as const;

/**
 * Raised on the requesting side when the link drops, the reply does not come in time, or the reply
 * cannot be read (it fails its schema): in each case what the other end did is unknown.
 */
export class LinkUnavailableError extends Error {
  constructor(readonly reason: keyof typeof UNAVAILABLE) {
    super(UNAVAILABLE[reason]);
    this.name = 'LinkUnavailableError';
  }
}

/** What was refused, and why, for the log of the end that refused it. */
export class LinkMessageRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'LinkMessageRefused';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  reply: MessageCheck<TSchema>;
}

/** The contract's error body of a refused request. */
function refusalBody(refusal: Refusal): ErrorBody {
  const body: ErrorBody = { type: 'PARAMETER', code: refusal.code, message: refusal.message };
  if (refusal.param !== '') body.param = refusal.param;
  return body;
}

/** What a refused frame says of itself, when it is JSON at all: its kind and id. */
function parseable(raw: string): { f?: unknown; id?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function errorBody(error: unknown): ErrorBody {
  if (error instanceof ContractError) return error.toBody();
  return { type: 'INTERNAL', code: 'INT-001', message: 'internal error' };
}

/** Request/reply over one WebSocket, used by both ends of every link. */
export class LinkPeer<R extends TSchema = TSchema, N extends TSchema = TSchema> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    private readonly handlers: LinkHandlers<R, N>,
    private readonly onUnexpected: (error: unknown) => void = () => undefined,
  ) {
    socket.on('message', (data: Buffer) => this.receive(data.toString('utf8')));
    socket.on('close', () => this.closed());
    socket.on('pong', () => this.handlers.onPong?.());
    // A socket error is always followed by 'close', which is where the peer reacts to it.
    socket.on('error', () => undefined);
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends a request; its reply must pass `reply`, else the request fails as `unreadable`. */
  request<S extends TSchema>(body: unknown, timeoutMs: number, reply: MessageCheck<S>): Promise<Static<S>> {
    if (!this.isOpen) return Promise.reject(new LinkUnavailableError('closed'));
    const id = this.nextId++;
    return new Promise<Static<S>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LinkUnavailableError('timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, reply });
      this.send({ f: 'req', id, body });
    });
  }

  notify(body: unknown): void {
    if (this.isOpen) this.send({ f: 'msg', body });
  }

  /** A WebSocket ping; every peer's socket answers it with a pong by itself. */
  ping(): void {
    if (this.isOpen) this.socket.ping();
  }

  close(code = 1000, reason = ''): void {
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.socket.terminate();
  }

  private send(frame: Frame): void {
    this.socket.send(JSON.stringify(frame));
  }

  private receive(raw: string): void {
    const parsed = parseFrame(raw);
    if (!parsed.ok) {
      this.refuseFrame(raw, parsed.refusal);
      return;
    }
    const frame = parsed.value;
    switch (frame.f) {
      case 'req':
        this.take(frame.id, frame.body);
        return;
      case 'res':
        this.settle(frame);
        return;
      case 'msg':
        this.read(frame.body);
        return;
      default: {
        const unknownFrame: never = frame;
        this.onUnexpected(new Error(`unknown frame ${JSON.stringify(unknownFrame)}`));
      }
    }
  }

  /**
   * A frame that is not one is dropped; when it still names a request (or a reply we wait for),
   * that one is refused at once rather than left to time out.
   */
  private refuseFrame(raw: string, refusal: Refusal): void {
    this.onUnexpected(new LinkMessageRefused(refusal));
    const frame = parseable(raw);
    if (frame === undefined || !Number.isSafeInteger(frame.id)) return;
    const id = frame.id as number;
    if (frame.f === 'req' && id >= 1) this.reply({ f: 'res', id, ok: false, error: refusalBody(refusal) });
    if (frame.f === 'res') this.fail(id, new LinkUnavailableError('unreadable'));
  }

  private take(id: number, body: unknown): void {
    const checked = this.handlers.side.requests.check(body);
    if (!checked.ok) {
      this.onUnexpected(new LinkMessageRefused(checked.refusal));
      this.reply({ f: 'res', id, ok: false, error: refusalBody(checked.refusal) });
      return;
    }
    const request = checked.value;
    if (this.handlers.ordered === true) {
      this.queue = this.queue.then(() => this.answer(id, request));
    } else {
      void this.answer(id, request);
    }
  }

  private read(body: unknown): void {
    const checked = this.handlers.side.notices.check(body);
    if (!checked.ok) {
      this.onUnexpected(new LinkMessageRefused(checked.refusal));
      return;
    }
    try {
      this.handlers.onNotice?.(checked.value);
    } catch (error) {
      this.onUnexpected(error);
    }
  }

  private async answer(id: number, request: Static<R>): Promise<void> {
    let reply: Frame;
    try {
      reply = { f: 'res', id, ok: true, result: await this.handlers.onRequest(request) };
    } catch (error) {
      if (!(error instanceof ContractError)) this.onUnexpected(error);
      reply = { f: 'res', id, ok: false, error: errorBody(error) };
    }
    this.reply(reply);
  }

  private reply(frame: Frame): void {
    if (this.isOpen) this.send(frame);
  }

  private settle(frame: Extract<Frame, { f: 'res' }>): void {
    const pending = this.pending.get(frame.id);
    if (pending === undefined) return;
    if (!frame.ok) {
      this.fail(frame.id, new ContractError(frame.error.code, frame.error.message, frame.error.param));
      return;
    }
    const checked = pending.reply.check(frame.result);
    if (!checked.ok) {
      this.onUnexpected(new LinkMessageRefused(checked.refusal));
      this.fail(frame.id, new LinkUnavailableError('unreadable'));
      return;
    }
    this.pending.delete(frame.id);
    clearTimeout(pending.timer);
    pending.resolve(checked.value);
  }

  private fail(id: number, error: Error): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  private closed(): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new LinkUnavailableError('closed'));
    }
    this.pending.clear();
    this.handlers.onClose?.();
  }
}
