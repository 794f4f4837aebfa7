import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port on 127.0.0.1 whose TCP connects never complete: no answer, no refusal, no reset. */
export interface SilentHost {
  port: number;
  close(): Promise<void>;
}

/** Linux queues up to backlog + 1 handshaken connections for a listener that does not accept. */
const BACKLOG = 1;

/** Listens and tells its port; it is stopped before it accepts anything. */
const LISTENER = `
const server = require('node:net').createServer();
server.listen({ host: '127.0.0.1', port: 0, backlog: ${BACKLOG} }, () => {
  process.stdout.write(server.address().port + '\\n');
});
`;

function portOf(listener: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    listener.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    listener.once('error', reject);
    listener.once('exit', (code) => reject(new Error(`the silent host's listener exited (${code})`)));
  });
}

/** Resolves once the process is stopped: a SIGSTOP is delivered, not done, when kill returns. */
export async function stopped(pid: number): Promise<void> {
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await sleep(5);
  }
}

function connected(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * A listener in a process of its own, stopped (SIGSTOP) before it accepts anything, whose accept
 * queue is then filled: the kernel completes handshakes into that queue for the listener, and
 * once it is full it drops every further SYN. A connect to the port then hangs (the client only
 * retransmits its SYN), which is what a host that has gone silent does; with room left in the
 * queue, or a running listener, the kernel would complete the handshake.
 */
export async function openSilentHost(): Promise<SilentHost> {
  const listener = spawn(process.execPath, ['-e', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const fillers: Socket[] = [];
  const close = async (): Promise<void> => {
    for (const socket of fillers) socket.destroy();
    if (listener.exitCode !== null || listener.signalCode !== null) return;
    const exited = new Promise((resolve) => listener.once('exit', resolve));
    listener.kill('SIGKILL');
    await exited;
  };
  try {
    const port = await portOf(listener);
    // A listener that printed its port was spawned, so it has a pid.
    const pid = listener.pid as number;
    listener.kill('SIGSTOP');
    await stopped(pid);
    for (let i = 0; i <= BACKLOG; i++) fillers.push(await connected(port));
    return { port, close };
  } catch (error) {
    await close();
    throw error;
  }
}
