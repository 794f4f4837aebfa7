import { WebSocket } from 'ws';
import { signRequest, type ListenDelivery } from '@tps/contracts';

/** A `listen` connection opened as the tool opens it, answering every copy with one status. */
export class SocketListener {
  readonly copies: ListenDelivery[] = [];

  private constructor(private readonly ws: WebSocket) {}

  static open(
    apiUrl: string,
    owner: { merchantId: string; secretKey: string },
    status: number,
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
    ws.on('message', (data: Buffer) => {
      const copy = JSON.parse(data.toString('utf8')) as ListenDelivery;
      listener.copies.push(copy);
      ws.send(
        JSON.stringify({
          type: 'answer',
          attempt_id: copy.attempt_id,
          status_code: status,
          latency_ms: 1,
          excerpt: '',
        }),
      );
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(listener));
      ws.once('error', reject);
    });
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
