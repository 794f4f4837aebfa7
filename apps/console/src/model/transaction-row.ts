import { eventTotal, money } from './scenarios';
import type { TransactionView } from './store';
import { mexicoCityText } from './time-words';

/** What a row of the transaction list shows beside the status: the total and when it was made. */
export interface RowFacts {
  /** Pesos, as money() writes them; null before anything told the amount. */
  amount: string | null;
  /** The ISO instant (merchant's clock, contract §8) and its Mexico City time of day. */
  at: { iso: string; time: string } | null;
}

export function rowFacts(view: TransactionView): RowFacts {
  const first = view.events[0];
  // Search's total is in centavos (contract §7); an event's amount is in pesos (contract §3.2).
  const pesos =
    view.item !== undefined
      ? view.item.amount.total / 100
      : first !== undefined
        ? eventTotal(first.operation.amount)
        : null;
  const iso = view.item?.created_at ?? first?.occurred_at;
  return {
    amount: pesos === null ? null : money(pesos),
    at: iso === undefined ? null : { iso, time: mexicoCityText(Date.parse(iso)).slice(11) },
  };
}
