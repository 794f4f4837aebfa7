import type { ConsoleClient } from './client';
import type { LiveMessage } from '../model/types';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

const RECONNECT_MS = 1000;
const PATH = '/sandbox/events';

/** The data lines of one server-sent event frame, joined; undefined for a comment-only frame. */
export function frameData(frame: string): string | undefined {
  const lines = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * Reads the signed live stream with fetch: EventSource cannot send the Authorization header, and
 * a token in the URL would end up in logs. Each reconnection is signed afresh.
 */
export function openLive(
  client: ConsoleClient,
  onMessage: (message: LiveMessage) => void,
  onState: (state: LiveState) => void,
): () => void {
  const controller = new AbortController();
  const run = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const headers = await client.headers('GET', PATH, '');
        const response = await fetch(PATH, {
          headers: { ...headers, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.ok && response.body !== null) await read(response.body, onMessage, onState);
      } catch {
        // dropped or refused: try again below
      }
      if (controller.signal.aborted) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  };
  onState('connecting');
  void run();
  return () => controller.abort();
}

async function read(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: LiveMessage) => void,
  onState: (state: LiveState) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = frameData(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (data === undefined) continue;
      const message = JSON.parse(data) as LiveMessage;
      if (message.type === 'hello') onState('live');
      onMessage(message);
    }
  }
}
