import { SEALED_PREFIX, sealedKeyId, type SecretKeyring, type Sql } from '@tps/database';
import { SEALED_MERCHANT_COLUMNS } from '../auth/merchant.entity';

const SEALED_COLUMNS = Object.keys(SEALED_MERCHANT_COLUMNS);
/** Enough to name what an operator must add; a store with more missing keys says so after fixing these. */
const MAX_REPORTED_KEYS = 10;

export interface UnknownSecretKey {
  keyId: string;
  /** Merchants with at least one secret sealed under it. */
  merchants: number;
}

const startsWith = (column: string) => `substr(${column}, 1, ?) = ?`;
const startsOtherwise = (column: string) => `substr(${column}, 1, ?) <> ?`;

/**
 * The key ids that stored secrets are sealed under and the keyring lacks (contract, "Secrets at
 * rest"), each with how many merchants it locks out: a few passes over the merchants table, once
 * per process at start-up.
 */
export async function unknownSecretKeys(sql: Sql, keyring: SecretKeyring): Promise<UnknownSecretKey[]> {
  const excluded = keyring.knownPrefixes();
  const found: UnknownSecretKey[] = [];
  while (found.length < MAX_REPORTED_KEYS) {
    const keyId = await firstUnknownKeyId(sql, excluded);
    if (keyId === undefined) break;
    const prefix = `${SEALED_PREFIX}${keyId}:`;
    const [counted] = await sql.all<{ n: number | string }>(
      `SELECT count(*) AS n FROM merchants WHERE ${SEALED_COLUMNS.map(startsWith).join(' OR ')}`,
      SEALED_COLUMNS.flatMap(() => [prefix.length, prefix]),
    );
    found.push({ keyId, merchants: Number(counted?.n ?? 0) });
    excluded.push(prefix);
  }
  return found;
}

/** A key id some stored secret is sealed under, other than those of `excluded` prefixes. */
async function firstUnknownKeyId(sql: Sql, excluded: readonly string[]): Promise<string | undefined> {
  for (const column of SEALED_COLUMNS) {
    const [row] = await sql.all<{ sealed: string }>(
      `SELECT ${column} AS sealed FROM merchants WHERE ${column} LIKE '${SEALED_PREFIX}%' AND ` +
        `${excluded.map(() => startsOtherwise(column)).join(' AND ')} LIMIT 1`,
      excluded.flatMap((prefix) => [prefix.length, prefix]),
    );
    if (row !== undefined) return sealedKeyId(row.sealed);
  }
  return undefined;
}

export function describeUnknownKey({ keyId, merchants }: UnknownSecretKey): string {
  return (
    `secrets sealed under key ${keyId}, which SECRETS_KEY does not hold: ${merchants} merchants ` +
    `cannot be opened (their signed requests answer 500 INT-004); add key ${keyId} to SECRETS_KEY, after the one that seals`
  );
}
