/** Contract §10: the last two digits of the total choose the outcome; named here in words. */
export const SCENARIO_CHOICES: ReadonlyArray<{ ending: string; words: string }> = [
  { ending: '00', words: 'approved (credit card, chip)' },
  { ending: '07', words: 'approved with a debit card' },
  { ending: '08', words: 'approved, card tapped (contactless)' },
  { ending: '09', words: 'approved, card swiped (magnetic stripe)' },
  { ending: '93', words: 'card read twice, then approved' },
  { ending: '95', words: 'slow acquirer: answers after 10 s' },
  { ending: '97', words: 'waits for a person to present the card' },
  { ending: '05', words: 'declined: do not honor (05)' },
  { ending: '51', words: 'declined: insufficient funds (51)' },
  { ending: '54', words: 'declined: expired card (54)' },
  { ending: '55', words: 'declined: incorrect PIN (55)' },
  { ending: '61', words: 'declined: over the withdrawal limit (61)' },
  { ending: '91', words: 'rejected: no card presented in time (TER-101)' },
  { ending: '92', words: 'rejected: card could not be read (TER-102)' },
  { ending: '96', words: 'rejected: validation on the terminal (TER-103)' },
  { ending: '94', words: 'canceled by the cardholder' },
];

/** Pesos as the console shows them. */
export function money(pesos: number): string {
  return `$${pesos.toFixed(2)}`;
}

/** A total from the amount fields of an event (pesos). */
export function eventTotal(amount: {
  iva: number;
  subtotalIva: number;
  subtotalIva0: number;
  tip?: number;
}): number {
  return amount.iva + amount.subtotalIva + amount.subtotalIva0 + (amount.tip ?? 0);
}
