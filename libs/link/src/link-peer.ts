import { WebSocket } from 'ws';
import { ContractError, type ErrorBody } from '@tps/domain';
import { parseFrame, type Frame } from './frames';

export interface LinkHandlers {
  /** Answers a request; a thrown ContractError goes back as its error body. */
  onRequest(body: unknown): Promise<unknown>;
  /** Answer requests strictly one after another (a terminal's events); else concurrently. */
  ordered?: boolean;
  onNotice?(body: unknown): void;
  onClose?(): void;
  /** The other end answered a ping: it is alive (a heartbeat). */
  onPong?(): void;
}

/** Raised on the requesting side when the link drops or the reply does not come in time. */
export class LinkUnavailableError extends Error {
  constructor(readonly reason: 'closed' | 'timeout') {
    super(reason === 'closed' ? 'link closed' : 'no reply in time');
    this.name = 'LinkUnavailableError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

function errorBody(error: unknown): ErrorBody {
  if (error instanceof ContractError) return error.toBody();
  return { type: 'INTERNAL', code: 'INT-001', message: 'internal error' };
}

/** Request/reply over one WebSocket, used by both ends of every link. */
export class LinkPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    private readonly handlers: LinkHandlers,
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

  request<T>(body: unknown, timeoutMs: number): Promise<T> {
    if (!this.isOpen) return Promise.reject(new LinkUnavailableError('closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LinkUnavailableError('timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve, reject, timer });
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
    const frame = parseFrame(raw);
    if (frame === undefined) return;
    switch (frame.f) {
      case 'req':
        if (this.handlers.ordered === true) {
          this.queue = this.queue.then(() => this.answer(frame.id, frame.body));
        } else {
          void this.answer(frame.id, frame.body);
        }
        return;
      case 'res':
        this.settle(frame);
        return;
      case 'msg':
        this.handlers.onNotice?.(frame.body);
        return;
      default: {
        const unknownFrame: never = frame;
        this.onUnexpected(new Error(`unknown frame ${JSON.stringify(unknownFrame)}`));
      }
    }
  }

  private async answer(id: number, body: unknown): Promise<void> {
    let reply: Frame;
    try {
      reply = { f: 'res', id, ok: true, result: await this.handlers.onRequest(body) };
    } catch (error) {
      if (!(error instanceof ContractError)) this.onUnexpected(error);
      reply = { f: 'res', id, ok: false, error: errorBody(error) };
    }
    if (this.isOpen) this.send(reply);
  }

  private settle(frame: Extract<Frame, { f: 'res' }>): void {
    const pending = this.pending.get(frame.id);
    if (pending === undefined) return;
    this.pending.delete(frame.id);
    clearTimeout(pending.timer);
    if (frame.ok) pending.resolve(frame.result);
    else pending.reject(new ContractError(frame.error.code, frame.error.message, frame.error.param));
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
