import { randomBytes, randomInt } from 'node:crypto';

/** Prefix of the merchant ids the sandbox makes, so an account is told apart from the demo ones. */
export const ACCOUNT_ID_PREFIX = 'acct_';

/** A fresh merchant id: 96 random bits, so ids never collide in practice and cannot be guessed. */
export function newMerchantId(): string {
  return `${ACCOUNT_ID_PREFIX}${randomBytes(12).toString('hex')}`;
}

/** A secret key as the merchant CLI makes them: 256 random bits in hex. */
export function newSecretKey(): string {
  return randomBytes(32).toString('hex');
}

/** Serials as `POST /sandbox/terminals` chooses them: `SIM` + 7 digits, distinct within the fleet. */
export function newSerials(count: number): string[] {
  const serials = new Set<string>();
  while (serials.size < count) serials.add(`SIM${String(randomInt(10_000_000)).padStart(7, '0')}`);
  return [...serials];
}
