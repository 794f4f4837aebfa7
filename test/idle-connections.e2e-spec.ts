import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Stack, stopped } from '@tps/testing';

/** Within the 5 s every answer advertises, and within fetch's own limit (that less 2 s). */
const IDLE_MS = 2500;
/** Long enough to take the connection past the advertised time and Node's second beyond it. */
const STALL_MS = 4000;

/** One GET on the socket; resolves its answer's head (each line ending CRLF), rejects if the connection ends first. */
function get(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.slice(0, end));
      if (length === null || received.length - end - 4 < Number(length[1])) return;
      done();
      resolve(received.slice(0, end + 2));
    };
    const onEnd = (error?: Error): void => {
      done();
      reject(error ?? new Error(`the connection ended with no answer (${received.length} bytes)`));
    };
    const onClose = (): void => onEnd();
    const done = (): void => {
      socket.off('data', onData);
      socket.off('error', onEnd);
      socket.off('close', onClose);
    };
    socket.on('data', onData);
    socket.once('error', onEnd);
    socket.once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/**
 * Contract, "Idle connections": every answer tells the client how long it may leave the
 * connection idle, and the service keeps it open far longer, so that a client that reuses it in
 * time is answered even if the replica was starved of CPU meanwhile (here, stopped by SIGSTOP).
 */
describe('an idle keep-alive connection, reused in time', () => {
  let stack: Stack;
  let socket: Socket | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    socket?.destroy();
    if (stack?.api.pid !== undefined) process.kill(stack.api.pid, 'SIGCONT');
    await stack?.stop();
  });

  it('is answered after the service stalled past the idle time it advertised', async () => {
    const { port } = new URL(stack.apiUrl);
    const opened = connect(Number(port), '127.0.0.1');
    socket = opened;
    await new Promise<void>((resolve, reject) => {
      opened.once('connect', resolve);
      opened.once('error', reject);
    });
    const first = await get(opened, '/health');
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nconnection: keep-alive\r\n/i);
    expect(first).toMatch(/\r\nkeep-alive: timeout=5\r\n/i);

    await sleep(IDLE_MS);
    const pid = stack.api.pid!;
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
    // Sent now, read once the service runs again: by then the connection was idle past 6 s.
    const second = get(opened, '/health');
    await sleep(STALL_MS);
    process.kill(pid, 'SIGCONT');
    await expect(second).resolves.toMatch(/^HTTP\/1\.1 200 /);
  });
});
