import { createHash } from 'node:crypto';

/**
 * The beginning every serial an account chooses must have in a hosted sandbox (contract §22):
 * 12 hex digits of the SHA-256 of its merchant id, then `-`. A serial outside it is refused
 * whether or not another account holds it, so the answer never tells that another tenant owns a
 * serial; within it, only the account's own terminals can be taken.
 */
export function serialPrefixOf(merchantId: string): string {
  return `${createHash('sha256').update(merchantId).digest('hex').slice(0, 12)}-`;
}

/** Why `serial` may not be chosen by this merchant in a hosted sandbox, or undefined when it may. */
export function serialOutOfScope(merchantId: string, serial: string): string | undefined {
  const prefix = serialPrefixOf(merchantId);
  return serial.startsWith(prefix)
    ? undefined
    : `in this hosted sandbox the serials an account chooses begin with ${prefix} (12 hex digits of the SHA-256 of its merchant id, then "-"); omit serial to have one chosen`;
}
