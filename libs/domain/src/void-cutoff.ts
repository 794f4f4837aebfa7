import { mexicoCityDate, mexicoCityTimeOfDayMs } from './mexico-city-time';

/** A void is allowed on the Mexico City calendar day of the approval, before 22:00 local (§8). */
export const VOID_CUTOFF_MS_OF_DAY = 22 * 60 * 60 * 1000;

export function isVoidAllowed(approvedAt: Date | number, now: Date | number): boolean {
  return (
    mexicoCityDate(approvedAt) === mexicoCityDate(now) && mexicoCityTimeOfDayMs(now) < VOID_CUTOFF_MS_OF_DAY
  );
}
