/**
 * Mexico City local time (contract §8): UTC-6 all year, since Mexico dropped daylight saving in
 * 2022. A fixed offset keeps the business rules pure and independent of the machine's tz data.
 */
export const MEXICO_CITY_OFFSET_MS = -6 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Wall-clock fields of an instant in Mexico City, read from a shifted UTC date. */
function shifted(at: Date | number): Date {
  return new Date(new Date(at).getTime() + MEXICO_CITY_OFFSET_MS);
}

/** The Mexico City calendar day of an instant, as `YYYY-MM-DD`. */
export function mexicoCityDate(at: Date | number): string {
  return shifted(at).toISOString().slice(0, 10);
}

/** Milliseconds since Mexico City midnight. */
export function mexicoCityTimeOfDayMs(at: Date | number): number {
  return ((shifted(at).getTime() % DAY_MS) + DAY_MS) % DAY_MS;
}

/** ISO 8601 with the local offset, e.g. `2026-11-22T02:00:00.123-06:00`. */
export function mexicoCityIso(at: Date | number): string {
  return shifted(at).toISOString().replace('Z', '-06:00');
}
