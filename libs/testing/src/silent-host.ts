import { execFileSync } from 'node:child_process';

/** A test host whose TCP connects never complete: no answer, no refusal, no reset. */
export interface SilentHost {
  /** Its IPv4 address; a connect to any port of it hangs until the caller gives up. */
  address: string;
  close(): void;
}

const ip = (...args: string[]): void => {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
};

/**
 * A network namespace of this test process's own, behind a veth pair, whose address the host
 * side reaches through a neighbour entry naming a MAC address nobody has: every SYN leaves on
 * the veth and is dropped by the peer as a frame for another host. That is a connect that hangs,
 * which loopback cannot give (a full accept queue still completes the handshake). Needs root and
 * iproute2, like the other real faults of the suites (chattr). The addresses, 10.254.0.0/16, are
 * the namespace's own: nothing leaves this machine.
 */
export function openSilentHost(): SilentHost {
  const slot = process.pid % 16_384;
  const namespace = `tps-silent-${process.pid}`;
  const hostSide = `tpss${slot}a`;
  const peerSide = `tpss${slot}b`;
  const prefix = `10.254.${slot >> 6}.${(slot & 63) * 4}`.split('.');
  const addressAt = (offset: number): string => [...prefix.slice(0, 3), Number(prefix[3]) + offset].join('.');
  const close = (): void => {
    for (const args of [
      ['link', 'del', hostSide],
      ['netns', 'del', namespace],
    ]) {
      try {
        ip(...args);
      } catch {
        // Not there (never made, or already gone): nothing to undo.
      }
    }
  };
  close();
  try {
    ip('netns', 'add', namespace);
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', peerSide);
    ip('link', 'set', peerSide, 'netns', namespace);
    ip('addr', 'add', `${addressAt(1)}/30`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    ip('-n', namespace, 'addr', 'add', `${addressAt(2)}/30`, 'dev', peerSide);
    ip('-n', namespace, 'link', 'set', peerSide, 'up');
    ip('neigh', 'replace', addressAt(2), 'lladdr', '02:00:00:00:00:01', 'dev', hostSide, 'nud', 'permanent');
  } catch (error) {
    close();
    throw error;
  }
  return { address: addressAt(2), close };
}
