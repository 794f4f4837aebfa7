import type { ValueTransformer } from 'typeorm';
import type { SecretKeyring } from './secret-keyring';

let installed: SecretKeyring | undefined;

/**
 * Sets the keyring of this process before its store opens. A column transformer is built when its
 * entity class is declared, long before any configuration is read, so the keyring is the one
 * piece of state the columns share with the process.
 */
export function installSecretKeyring(keyring: SecretKeyring): void {
  installed = keyring;
}

export function secretKeyring(): SecretKeyring {
  if (installed === undefined) {
    throw new Error('no secret keyring installed: secrets cannot be read or written');
  }
  return installed;
}

/**
 * A column that holds a secret: sealed on its way into the database, opened on its way out, so
 * that entities carry the value itself and the table only sealed text. `purpose` names the
 * column (`merchants.secret_key`).
 */
export function sealedColumn(purpose: string): ValueTransformer {
  return {
    to: (value: unknown) => (typeof value === 'string' ? secretKeyring().seal(value, purpose) : value),
    from: (value: unknown) => (typeof value === 'string' ? secretKeyring().open(value, purpose) : value),
  };
}
