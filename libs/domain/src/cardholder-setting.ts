import type { CardholderMode } from './operation-types';

/** How long `manual` holds unless set again (contract §15): one viewer's choice must not outlive the demo. */
export const DEFAULT_CARDHOLDER_MANUAL_LAPSE_MS = 10 * 60_000;

/**
 * A terminal's cardholder setting (contract §15). The API knows no people, so `manual` records
 * what it does know: when it was set (real time, epoch ms) and the client address that set it.
 */
export type CardholderSetting = { mode: 'auto' } | { mode: 'manual'; setAtMs: number; setFrom: string };

export const AUTO_CARDHOLDER: CardholderSetting = { mode: 'auto' };

/** The setting a PATCH asks for; `manual` asked again starts its lapse anew. */
export function chooseCardholder(mode: CardholderMode, nowMs: number, from: string): CardholderSetting {
  return mode === 'auto' ? AUTO_CARDHOLDER : { mode: 'manual', setAtMs: nowMs, setFrom: from };
}

export function cardholderLapsesAtMs(setting: CardholderSetting, lapseMs: number): number | null {
  return setting.mode === 'manual' ? setting.setAtMs + lapseMs : null;
}

/** The setting as it stands at `nowMs`: `manual` goes back to `auto` once its lapse has passed. */
export function cardholderAt(setting: CardholderSetting, nowMs: number, lapseMs: number): CardholderSetting {
  const lapsesAt = cardholderLapsesAtMs(setting, lapseMs);
  return lapsesAt !== null && nowMs >= lapsesAt ? AUTO_CARDHOLDER : setting;
}
