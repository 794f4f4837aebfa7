import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on right now, for a process started next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A base port for a launcher that takes ports at fixed offsets from it (`start:cluster`: the
 * front, the replicas after it, simulators and metrics further on), where every `base + offset`
 * is free now. Chosen below Linux's ephemeral range (32768 up), so that no outgoing connection or
 * port-0 listener of another test takes one of them between this check and the launcher's bind.
 */
export async function freePortBase(offsets: readonly number[], tries = 50): Promise<number> {
  const span = Math.max(...offsets);
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const base = 10_000 + Math.floor(Math.random() * (32_000 - span - 10_000));
    const free = await Promise.all(offsets.map((offset) => bindable(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no base port with ${offsets.length} free ports at offsets up to ${span}`);
}
