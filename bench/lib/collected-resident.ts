import { WebSocket } from 'ws';
import type { AppProcess } from '@tps/testing';
import { ofPid, residentMiB } from './resident-memory';

/** The Node flag that lets `collectedResidentMiB` reach an app: its inspector, on loopback only. */
export const INSPECT_LOOPBACK = '--inspect=127.0.0.1:0';

const INSPECTOR_URL = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/;
const CALL_TIMEOUT_MS = 10_000;

/**
 * An app's resident memory once its garbage is collected, MiB: a full collection asked through
 * its inspector (started with INSPECT_LOOPBACK), then the RSS read from /proc. What is left is
 * what the process keeps; a sample without it also counts the garbage V8 has not collected yet.
 */
export async function collectedResidentMiB(app: AppProcess): Promise<number> {
  const url = INSPECTOR_URL.exec(app.log)?.[1];
  if (url === undefined) throw new Error(`${app.name} has no inspector: start it with ${INSPECT_LOOPBACK}`);
  const socket = new WebSocket(url);
  try {
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    let id = 0;
    const call = (method: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const sent = ++id;
        const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), CALL_TIMEOUT_MS);
        const onMessage = (data: Buffer): void => {
          if ((JSON.parse(data.toString('utf8')) as { id?: number }).id !== sent) return;
          clearTimeout(timer);
          socket.off('message', onMessage);
          resolve();
        };
        socket.on('message', onMessage);
        socket.send(JSON.stringify({ id: sent, method }));
      });
    // Twice: the first collection's finalizers can free more for the second.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    return ofPid(app.pid, residentMiB);
  } finally {
    socket.close();
  }
}
