/** Contract §8: the merchant's clock is read in Mexico City, UTC-6 with no daylight saving. */
const MEXICO_CITY_OFFSET_MS = -6 * 3_600_000;

/** `YYYY-MM-DD HH:MM:SS` in Mexico City for an instant (ms since the epoch). */
export function mexicoCityText(atMs: number): string {
  return new Date(atMs + MEXICO_CITY_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** `HH:MM:SS.mmm` in Mexico City for an ISO instant (an event's `occurred_at`), as the list and header read time. */
export function mexicoCityTimeOfDay(iso: string): string {
  const atMs = Date.parse(iso);
  return `${mexicoCityText(atMs).slice(11)}.${String(atMs % 1000).padStart(3, '0')}`;
}

/** The sandbox clock as the header shows it: real time moved forward by the merchant's offset. */
export function sandboxClockText(realNowMs: number, offsetSeconds: number): string {
  return `${mexicoCityText(realNowMs + offsetSeconds * 1000)} Mexico City`;
}

/** How far the sandbox clock is ahead: days from a day on, else hours and minutes ("+29 d", "+2 h 5 min"). */
export function offsetWords(offsetSeconds: number): string {
  const minutes = Math.floor(offsetSeconds / 60);
  if (minutes <= 0) return '';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts =
    days > 0
      ? [`${days} d`, hours > 0 ? `${hours} h` : '']
      : [hours > 0 ? `${hours} h` : '', rest > 0 ? `${rest} min` : ''];
  return `+${parts.filter((part) => part !== '').join(' ')}`;
}

/** "just now", "3 min ago", "2 h ago": how long ago something happened, for a person. */
export function agoWords(thenMs: number, nowMs: number): string {
  const minutes = Math.floor((nowMs - thenMs) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
