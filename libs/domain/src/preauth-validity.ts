import { DAY_MS } from './mexico-city-time';

/** How long a pre-authorization holds, counted from its approval or last re-authorization (§8). */
export const PREAUTH_VALIDITY_DAYS = { DEBIT: 7, CREDIT: 28 } as const;

/** Debit cards hold 7 days; every other card (credit) 28. */
export function preauthValidityDays(cardType: string): number {
  return cardType === 'DEBIT' ? PREAUTH_VALIDITY_DAYS.DEBIT : PREAUTH_VALIDITY_DAYS.CREDIT;
}

export function preauthExpiresAt(validFrom: Date | number, cardType: string): Date {
  return new Date(new Date(validFrom).getTime() + preauthValidityDays(cardType) * DAY_MS);
}

/** Valid up to, not including, the instant `days` days after the start. */
export function isPreauthExpired(validFrom: Date | number, cardType: string, now: Date | number): boolean {
  return new Date(now).getTime() >= preauthExpiresAt(validFrom, cardType).getTime();
}
