import type { TerminalRecord, TransactionEvent } from './types';
import { eventTotal, money } from './scenarios';

export type ScreenTone = 'idle' | 'waiting' | 'working' | 'approved' | 'refused' | 'offline';

/** What a terminal's screen shows, from its link and the last event it stored. */
export interface Screen {
  tone: ScreenTone;
  title: string;
  detail: string;
}

const READING: Record<string, string> = {
  CHIP: 'chip inserted',
  CONTACTLESS: 'card tapped',
  MAGNETIC_STRIPE: 'card swiped',
};

export function screenOf(terminal: TerminalRecord, last: TransactionEvent | undefined): Screen {
  if (terminal.link === 'offline')
    return { tone: 'offline', title: 'Offline', detail: 'link to the service cut' };
  if (last === undefined)
    return { tone: 'idle', title: 'Ready', detail: terminal.link === 'up' ? 'idle' : 'linking…' };
  const amount = `${last.operation.type} ${money(eventTotal(last.operation.amount))}`;
  const reading = last.reading_type === undefined ? '' : ` · ${last.reading_type}`;
  switch (last.status) {
    case 'TERMINAL_ACKNOWLEDGED':
      return { tone: 'waiting', title: 'Present card', detail: `waiting for a card · ${amount}` };
    case 'CARD_PRESENTED':
      return {
        tone: 'working',
        title: 'Reading card',
        detail: `${READING[last.reading_type ?? 'CHIP']}${reading} · attempt ${last.interaction_attempt ?? 1}`,
      };
    case 'APPROVAL_REQUESTED':
      return { tone: 'working', title: 'Authorizing…', detail: `${amount}${reading}` };
    case 'APPROVAL':
      return { tone: 'approved', title: 'Approved', detail: `${amount}${reading}` };
    case 'DECLINED':
      return {
        tone: 'refused',
        title: `Declined ${last.failure_reason?.code ?? ''}`.trim(),
        detail: last.failure_reason?.message ?? amount,
      };
    case 'TERMINAL_REJECTED':
      return {
        tone: 'refused',
        title: `Rejected ${last.failure_reason?.code ?? ''}`.trim(),
        detail: last.failure_reason?.message ?? amount,
      };
    case 'TERMINAL_CANCELED':
      return { tone: 'refused', title: 'Canceled', detail: amount };
    default: {
      const unknown: never = last.status;
      return { tone: 'idle', title: String(unknown), detail: '' };
    }
  }
}
