import { DEFAULT_SHARE } from './share';

/**
 * How the fleet is split over simulator shares (docs/contract.md, "Links between the apps"): with
 * one share every terminal belongs to `fleet`; with N > 1, to `shard-<k>`, k = 1 + a stable hash
 * (FNV-1a) of its serial mod N. The hash depends on the serial alone, so every replica and every restart
 * puts a terminal in the same share.
 */
export function shareOfTerminal(serial: string, shares: number): string {
  if (shares <= 1) return DEFAULT_SHARE;
  return shardName(1 + (fnv1a(serial) % shares));
}

/** FNV-1a, 32 bits: small, fast, and the same on every platform and Node version. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

export function shardName(k: number): string {
  return `shard-${k}`;
}

/** The share names of a fleet split `shares` ways: the only ones a control link may link for. */
export function fleetShares(shares: number): string[] {
  if (shares <= 1) return [DEFAULT_SHARE];
  return Array.from({ length: shares }, (_, index) => shardName(index + 1));
}
