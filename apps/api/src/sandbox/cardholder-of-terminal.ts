import { AUTO_CARDHOLDER, cardholderLapsesAtMs, type CardholderSetting } from '@tps/domain';
import type { TerminalEntity } from '../terminals/terminal.entity';

/** What the terminal record shows of a `manual` setting (contract §15); null when `auto`. */
export interface CardholderManualRecord {
  setAt: string;
  setFrom: string;
  lapsesAt: string;
}

/** The stored setting; a `manual` of unknown age (none recorded) counts as set long ago, so it lapses. */
export function cardholderOf(terminal: TerminalEntity): CardholderSetting {
  if ((terminal.cardholder ?? 'auto') === 'auto') return AUTO_CARDHOLDER;
  const setAtMs = Date.parse(terminal.cardholderSetAt ?? '');
  return {
    mode: 'manual',
    setAtMs: Number.isNaN(setAtMs) ? 0 : setAtMs,
    setFrom: terminal.cardholderSetFrom ?? 'unknown',
  };
}

export function storeCardholder(terminal: TerminalEntity, setting: CardholderSetting): void {
  terminal.cardholder = setting.mode;
  terminal.cardholderSetAt = setting.mode === 'manual' ? new Date(setting.setAtMs).toISOString() : null;
  terminal.cardholderSetFrom = setting.mode === 'manual' ? setting.setFrom : null;
}

export function cardholderManualRecord(
  setting: CardholderSetting,
  lapseMs: number,
): CardholderManualRecord | null {
  const lapsesAtMs = cardholderLapsesAtMs(setting, lapseMs);
  if (setting.mode !== 'manual' || lapsesAtMs === null) return null;
  return {
    setAt: new Date(setting.setAtMs).toISOString(),
    setFrom: setting.setFrom,
    lapsesAt: new Date(lapsesAtMs).toISOString(),
  };
}
