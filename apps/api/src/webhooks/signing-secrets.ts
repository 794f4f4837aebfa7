import { UnknownSecretKeyError } from '@tps/database';
import type { DeliveryTarget } from '@tps/delivery';
import { WEBHOOK_SECRET_COLUMN } from '../auth/merchant.entity';

/** A merchant's webhook secrets as stored: sealed when read by raw SQL, open when read as an entity. */
export interface StoredSigningSecrets {
  current: string | null;
  previous: string | null;
  previousUntil: string | null;
}

/**
 * The secrets that sign an attempt starting at `nowMs` (real time, as `webhook-timestamp`): the
 * merchant's secret, and the one it replaced while their overlap lasts (contract, "Webhook secret
 * rotation"). None: the attempt goes unsigned.
 */
export function secretsInForce(stored: StoredSigningSecrets, nowMs: number): string[] {
  const secrets = stored.current === null ? [] : [stored.current];
  const { previous, previousUntil } = stored;
  if (previous !== null && previousUntil !== null && Date.parse(previousUntil) > nowMs)
    secrets.push(previous);
  return secrets;
}

/** The same, from the sealed texts of a raw SQL read. */
export function openSecretsInForce(sealed: StoredSigningSecrets, nowMs: number): string[] {
  return secretsInForce(
    {
      current: sealed.current === null ? null : (WEBHOOK_SECRET_COLUMN.from(sealed.current) as string),
      previous: sealed.previous === null ? null : (WEBHOOK_SECRET_COLUMN.from(sealed.previous) as string),
      previousUntil: sealed.previousUntil,
    },
    nowMs,
  );
}

/**
 * How an attempt starting at `nowMs` is signed, from the sealed texts: with the secrets in force,
 * or not at all when one is sealed under a key this process lacks (contract, "Secrets at rest"):
 * then it is not sent, and `unsignable` says why. Never sent unsigned instead.
 */
export function signingOf(
  sealed: StoredSigningSecrets,
  nowMs: number,
): Pick<DeliveryTarget, 'signingSecrets' | 'unsignable'> {
  try {
    return { signingSecrets: openSecretsInForce(sealed, nowMs) };
  } catch (error) {
    if (!(error instanceof UnknownSecretKeyError)) throw error;
    return {
      signingSecrets: [],
      unsignable: `the merchant's webhook secret is sealed under key ${error.keyId}, which SECRETS_KEY does not hold`,
    };
  }
}
