import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { SecretKeyring, localKeyFile, sqlitePath } from '@tps/database';
import type { ApiConfig } from '../config/api-config';

export interface ChosenKeyring {
  keyring: SecretKeyring;
  /** What the start-up log says about where the key came from. */
  source: string;
}

/**
 * The keyring of this process (contract, "Secrets at rest"): SECRETS_KEY when set (required in
 * production), else, in the sandbox, a local key kept in a file beside its data; an in-memory
 * database takes a key that lives as long as it does.
 */
export function chooseSecretKeyring(config: ApiConfig): ChosenKeyring {
  if (config.SECRETS_KEY !== undefined) {
    const keyring = SecretKeyring.parse(config.SECRETS_KEY);
    return { keyring, source: `SECRETS_KEY, sealing with key ${keyring.writeKeyId}` };
  }
  if (config.PROFILE === 'production') throw new Error('SECRETS_KEY must be set in the production profile');
  const database = sqlitePath(config.DATABASE_URL);
  if (database === ':memory:') {
    const keyring = new SecretKeyring([{ id: 'memory', key: randomBytes(32) }]);
    return { keyring, source: 'no SECRETS_KEY: a key held in memory, for an in-memory database' };
  }
  const file =
    config.SECRETS_KEY_FILE ??
    (database === undefined ? join('data', 'api-secrets.key') : join(dirname(database), 'api-secrets.key'));
  const keyring = new SecretKeyring([localKeyFile(file)]);
  return {
    keyring,
    source: `no SECRETS_KEY: the sandbox's local key in ${file} (key ${keyring.writeKeyId}); set SECRETS_KEY to use your own`,
  };
}
