import type { TerminalPace } from '@tps/domain';

/** The ordinary waits of a terminal (contract §10); scenario waits do not scale with pace. */
export type OrdinaryWait = 'card_read' | 'acquirer';

const WAITS_MS: Record<TerminalPace, Record<OrdinaryWait, number>> = {
  instant: { card_read: 0, acquirer: 0 },
  fast: { card_read: 30, acquirer: 20 },
  realistic: { card_read: 1500, acquirer: 1000 },
};

export function ordinaryWaitMs(pace: TerminalPace, wait: OrdinaryWait): number {
  return WAITS_MS[pace][wait];
}
