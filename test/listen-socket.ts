import { WebSocket } from 'ws';
import { signRequest, type ListenDelivery } from '@tps/contracts';

/**
 * A `listen` connection opened as the tool opens it, answering every copy with one status, or
 * (`'held'`) none until `release`, as a local receiver stopped in a debugger would.
 */
export class SocketListener {
  readonly copies: ListenDelivery[] = [];
  private held: ListenDelivery[] | undefined;
  private status = 0;

  private constructor(private readonly ws: WebSocket) {}

  static open(
    apiUrl: string,
    owner: { merchantId: string; secretKey: string },
    status: number | 'held',
  ): Promise<SocketListener> {
    const signed = signRequest({
      merchantId: owner.merchantId,
      secret: owner.secretKey,
      method: 'GET',
      path: '/sandbox/listen',
    });
    const ws = new WebSocket(`${apiUrl.replace(/^http/, 'ws')}/sandbox/listen`, {
      headers: { authorization: signed.authorization, timestamp: signed.timestamp },
    });
    const listener = new SocketListener(ws);
    if (status === 'held') listener.held = [];
    else listener.status = status;
    ws.on('message', (data: Buffer) => {
      const copy = JSON.parse(data.toString('utf8')) as ListenDelivery;
      listener.copies.push(copy);
      if (listener.held === undefined) listener.answer(copy);
      else listener.held.push(copy);
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(listener));
      ws.once('error', reject);
    });
  }

  /** Answers the copies held so far with `status`, and every later one at once. */
  release(status: number): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.status = status;
    for (const copy of held) this.answer(copy);
  }

  private answer(copy: ListenDelivery): void {
    this.ws.send(
      JSON.stringify({
        type: 'answer',
        attempt_id: copy.attempt_id,
        status_code: this.status,
        latency_ms: 1,
        excerpt: '',
      }),
    );
  }

  eventIds(): string[] {
    return this.copies.map((copy) => (JSON.parse(copy.body) as { event_id: string }).event_id);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
