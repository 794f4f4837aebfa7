import { SEALED_PREFIX, sealedKeyId, type SealedSecrets, type SecretKeyring } from '@tps/database';

/** Enough to name what an operator must add; a store with more missing keys says so after fixing these. */
const MAX_REPORTED_KEYS = 10;

export interface UnknownSecretKey {
  keyId: string;
  /** Merchants with at least one secret sealed under it. */
  merchants: number;
}

/**
 * The key ids that stored secrets are sealed under and the keyring lacks (contract, "Secrets at
 * rest"), each with how many merchants it locks out: a few passes over the merchants table, once
 * per process at start-up.
 */
export async function unknownSecretKeys(
  secrets: SealedSecrets,
  keyring: SecretKeyring,
): Promise<UnknownSecretKey[]> {
  const excluded = keyring.knownPrefixes();
  const found: UnknownSecretKey[] = [];
  while (found.length < MAX_REPORTED_KEYS) {
    const sealed = await secrets.oneOutside(SEALED_PREFIX, excluded);
    const keyId = sealed === undefined ? undefined : sealedKeyId(sealed);
    if (keyId === undefined) break;
    const prefix = `${SEALED_PREFIX}${keyId}:`;
    found.push({ keyId, merchants: await secrets.countBeginningWith(prefix) });
    excluded.push(prefix);
  }
  return found;
}

export function describeUnknownKey({ keyId, merchants }: UnknownSecretKey): string {
  return (
    `secrets sealed under key ${keyId}, which SECRETS_KEY does not hold: ${merchants} merchants ` +
    `cannot be opened (their signed requests answer 500 INT-004); add key ${keyId} to SECRETS_KEY, after the one that seals`
  );
}
