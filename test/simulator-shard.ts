import { join } from 'node:path';
import { AppProcess, LINK_SECRET, SIMULATOR_ENTRY, type Stack } from '@tps/testing';

/**
 * A simulator process for one fleet share (docs/contract.md, "Links between the apps"), on a SQLite
 * file of its own in the stack's folder, linking to `apiUrl` (replicas, comma-separated, or a
 * balancer); quick to link again and to ask for its share again.
 */
export function startShard(stack: Stack, share: string, apiUrl: string): Promise<AppProcess> {
  return AppProcess.start(`terminal-simulator-${share}`, SIMULATOR_ENTRY, {
    PORT: '0',
    HOST: '127.0.0.1',
    API_URL: apiUrl,
    DATABASE_URL: `sqlite:${join(stack.dir, `terminal-${share}.sqlite`)}`,
    LINK_SECRET,
    RECONNECT_MIN_MS: '20',
    FLEET_SHARE: share,
    SHARE_RETRY_MIN_MS: '100',
    SHARE_RETRY_MAX_MS: '400',
  });
}
