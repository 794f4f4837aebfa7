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
