/**
 * The named scenarios of `trigger` (contract §10 and §11), one row each: what the charge does to
 * choose it (the total's last two digits, or a sandbox control) and what it must end in.
 */

export type FinalStatus = 'APPROVAL' | 'DECLINED' | 'TERMINAL_REJECTED' | 'TERMINAL_CANCELED';

/** What a scenario must end in. `code` is the decline's responseCode or the terminal's TER code. */
export interface Expected {
  /** A final state of the lifecycle, or NOT_TAKEN for the service's 503 (the charge never ran). */
  status: FinalStatus | 'NOT_TAKEN';
  code?: string;
  readingType?: 'CHIP' | 'CONTACTLESS' | 'MAGNETIC_STRIPE';
  cardType?: 'CREDIT' | 'DEBIT';
  /** How many times the card was read (CARD_PRESENTED events). */
  cardPresentations?: number;
}

/** A sandbox control the scenario uses (§11): the terminal's link, or the cardholder's screen. */
export type Control =
  | { kind: 'offline' }
  | { kind: 'card'; body: { action: 'present'; reading_type: 'CONTACTLESS' } | { action: 'cancel' } };

export interface Scenario {
  name: string;
  summary: string;
  /** The last two digits of the total in centavos (§10); "00" is the ordinary approval. */
  ending: string;
  control?: Control;
  expected: Expected;
}

function decline(code: string): Scenario {
  return {
    name: `decline-${code}`,
    summary: `declined by the acquirer with ISO response code ${code}`,
    ending: code,
    expected: { status: 'DECLINED', code, cardPresentations: 1 },
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'approve',
    summary: 'approved, credit card read by CHIP',
    ending: '00',
    expected: { status: 'APPROVAL', code: '00', readingType: 'CHIP', cardType: 'CREDIT' },
  },
  ...['05', '51', '54', '55', '61'].map(decline),
  {
    name: 'debit',
    summary: 'approved, debit card',
    ending: '07',
    expected: { status: 'APPROVAL', code: '00', cardType: 'DEBIT' },
  },
  {
    name: 'contactless',
    summary: 'approved, card read CONTACTLESS',
    ending: '08',
    expected: { status: 'APPROVAL', code: '00', readingType: 'CONTACTLESS' },
  },
  {
    name: 'swipe',
    summary: 'approved, card read by MAGNETIC_STRIPE',
    ending: '09',
    expected: { status: 'APPROVAL', code: '00', readingType: 'MAGNETIC_STRIPE' },
  },
  {
    name: 'timeout',
    summary: 'rejected at the terminal: no card presented in time (TER-101)',
    ending: '91',
    expected: { status: 'TERMINAL_REJECTED', code: 'TER-101', cardPresentations: 0 },
  },
  {
    name: 'reject-retries',
    summary: 'rejected at the terminal: card unreadable after the maximum retries (TER-102)',
    ending: '92',
    expected: { status: 'TERMINAL_REJECTED', code: 'TER-102', cardPresentations: 0 },
  },
  {
    name: 'reject-validation',
    summary: 'rejected at the terminal on validation (TER-103)',
    ending: '96',
    expected: { status: 'TERMINAL_REJECTED', code: 'TER-103', cardPresentations: 0 },
  },
  {
    name: 'reject-card',
    summary: 'card rejected at the terminal (CHIP), presented again CONTACTLESS, then approved',
    ending: '93',
    expected: { status: 'APPROVAL', code: '00', readingType: 'CONTACTLESS', cardPresentations: 2 },
  },
  {
    name: 'cancel',
    summary: 'canceled by the cardholder after the card was read (TER-104)',
    ending: '94',
    expected: { status: 'TERMINAL_CANCELED', code: 'TER-104', cardPresentations: 1 },
  },
  {
    name: 'slow-acquirer',
    summary: 'the acquirer answers after 10 s, then approves',
    ending: '95',
    expected: { status: 'APPROVAL', code: '00' },
  },
  {
    name: 'present-card',
    summary: 'waits for a person; the cardholder control presents a CONTACTLESS card; approved',
    ending: '97',
    control: { kind: 'card', body: { action: 'present', reading_type: 'CONTACTLESS' } },
    expected: { status: 'APPROVAL', code: '00', readingType: 'CONTACTLESS', cardPresentations: 1 },
  },
  {
    name: 'cardholder-cancel',
    summary: 'waits for a person; the cardholder control cancels on the screen (TER-104)',
    ending: '97',
    control: { kind: 'card', body: { action: 'cancel' } },
    expected: { status: 'TERMINAL_CANCELED', code: 'TER-104', cardPresentations: 0 },
  },
  {
    name: 'offline',
    summary: 'the terminal put offline: the charge is not taken (503 TER-001), then back online',
    ending: '00',
    control: { kind: 'offline' },
    expected: { status: 'NOT_TAKEN', code: 'TER-001' },
  },
];

export function scenarioNamed(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}

/** The `--list` text: one line per scenario. */
export function scenarioList(): string {
  const width = Math.max(...SCENARIOS.map((scenario) => scenario.name.length));
  return SCENARIOS.map((s) => `${s.name.padEnd(width)}  ${s.summary}\n`).join('');
}

/**
 * A charge body whose total (centavos) ends in the scenario's two digits (§10), with the URL its
 * events are delivered to when one is given.
 */
export function chargeBody(
  scenario: Scenario,
  clientTransactionId: string,
  webhookUrl?: string,
): Record<string, unknown> {
  return {
    amount: { iva: 1600, subtotal_iva: 10_000 + Number(scenario.ending), subtotal_iva0: 0 },
    client_transaction_id: clientTransactionId,
    metadata: { reference: `trigger ${scenario.name}` },
    ...(webhookUrl === undefined ? {} : { events_webhook_url: webhookUrl }),
  };
}
