import { agoWords } from './time-words';
import type { CardholderManual } from './types';

/**
 * What the terminal card says of a `manual` setting, so that everyone watching a shared merchant
 * sees since when it holds, who set it as far as the service knows (a client address, contract
 * §15), and when it goes back to auto.
 */
export function cardholderNote(manual: CardholderManual, nowMs: number): string {
  const left = Math.max(1, Math.ceil((Date.parse(manual.lapsesAt) - nowMs) / 60_000));
  return `manual, set ${agoWords(Date.parse(manual.setAt), nowMs)} from ${manual.setFrom} · back to auto in ${left} min`;
}
