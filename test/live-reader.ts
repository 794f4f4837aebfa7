import { signRequest } from '@tps/contracts';
import { DEMO_MERCHANT, poll } from '@tps/testing';

export type Message = Record<string, any>;

/** A reader of the signed live stream, as the console's browser code reads it: fetch, not EventSource. */
export class LiveReader {
  readonly messages: Message[] = [];
  private readonly controller = new AbortController();

  private constructor(readonly status: number) {}

  static async open(baseUrl: string, credentials = DEMO_MERCHANT): Promise<LiveReader> {
    const path = '/sandbox/events';
    const signed = signRequest({ ...credentials, method: 'GET', path });
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}${path}`, {
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        accept: 'text/event-stream',
      },
      signal: controller.signal,
    });
    const reader = new LiveReader(response.status);
    if (response.body === null || response.status !== 200) return reader;
    Object.assign(reader, { controller });
    void reader.pump(response.body);
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data.length > 0) this.messages.push(JSON.parse(data));
        }
      }
    } catch {
      // closed by the test
    }
  }

  waitFor(what: string, predicate: (messages: Message[]) => boolean): Promise<true> {
    return poll(what, async () => (predicate(this.messages) ? true : undefined), 15_000);
  }

  close(): void {
    this.controller.abort();
  }
}
