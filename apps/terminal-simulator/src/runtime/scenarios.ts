import { totalCentavos, type CardholderMode, type ReadingType } from '@tps/domain';
import type { OperationOrder } from '@tps/link';

export type TerminalRejection = 'TER-101' | 'TER-102' | 'TER-103';

/**
 * One step of a scenario. Ordinary waits (card read, acquirer) scale with the terminal's pace;
 * the `*Ms` waits belong to the scenario and hold at every pace (contract §10).
 */
export type ScenarioStep =
  /** Waits for a card (ordinary wait), then CARD_PRESENTED read as `readingType`. */
  | { step: 'read_card'; readingType: ReadingType }
  /** Waits for a person at the screen: the sandbox card control, or TER-101 after `timeoutMs`. */
  | { step: 'wait_for_person'; timeoutMs: number }
  /** The terminal refuses locally, straight from TERMINAL_ACKNOWLEDGED. */
  | { step: 'reject'; code: TerminalRejection; message: string }
  /** The cardholder presses cancel after the card was read. */
  | { step: 'cardholder_cancel' }
  /** APPROVAL_REQUESTED, then the acquirer answers `responseCode` ("00" approves). */
  | { step: 'ask_acquirer'; responseCode: string; extraWaitMs: number };

export interface Scenario {
  /** The two last digits of the total that choose it, or "default". */
  name: string;
  card: 'credit' | 'debit';
  steps: readonly ScenarioStep[];
}

const approve = { step: 'ask_acquirer', responseCode: '00', extraWaitMs: 0 } as const;
const chip = { step: 'read_card', readingType: 'CHIP' } as const;

function decline(code: string): Scenario {
  return {
    name: code,
    card: 'credit',
    steps: [chip, { step: 'ask_acquirer', responseCode: code, extraWaitMs: 0 }],
  };
}

function reject(name: string, code: TerminalRejection, message: string): Scenario {
  return { name, card: 'credit', steps: [{ step: 'reject', code, message }] };
}

export const DEFAULT_SCENARIO: Scenario = { name: 'default', card: 'credit', steps: [chip, approve] };

/** Contract §10: the centavos of the total choose what the terminal and the acquirer do. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  '05': decline('05'),
  '51': decline('51'),
  '54': decline('54'),
  '55': decline('55'),
  '61': decline('61'),
  '07': { name: '07', card: 'debit', steps: [chip, approve] },
  '08': { name: '08', card: 'credit', steps: [{ step: 'read_card', readingType: 'CONTACTLESS' }, approve] },
  '09': {
    name: '09',
    card: 'credit',
    steps: [{ step: 'read_card', readingType: 'MAGNETIC_STRIPE' }, approve],
  },
  '91': reject('91', 'TER-101', 'no card was presented in time'),
  '92': reject('92', 'TER-102', 'the card could not be read after the maximum number of retries'),
  '96': reject('96', 'TER-103', 'the terminal refused the operation on validation'),
  '93': {
    name: '93',
    card: 'credit',
    steps: [chip, { step: 'read_card', readingType: 'CONTACTLESS' }, approve],
  },
  '94': { name: '94', card: 'credit', steps: [chip, { step: 'cardholder_cancel' }] },
  '95': {
    name: '95',
    card: 'credit',
    steps: [chip, { step: 'ask_acquirer', responseCode: '00', extraWaitMs: 10_000 }],
  },
  '97': { name: '97', card: 'credit', steps: [{ step: 'wait_for_person', timeoutMs: 60_000 }, approve] },
};

/** Operations whose amount chooses a scenario; the others act on an earlier card. */
const SCENARIO_OPERATIONS: ReadonlySet<OperationOrder['type']> = new Set(['charge', 'authorization']);

/** How long a person at a `manual` terminal has to act, as in scenario 97 (contract §15). */
const PERSON_WAIT_MS = 60_000;

/**
 * A `manual` terminal lets the presenter's click read the card: where the scenario would read the
 * first card by itself, it waits for a person instead, then goes on as the scenario says (so 51
 * still declines). A scenario that rejects on the terminal never reads a card, so it is kept.
 */
function withCardholder(scenario: Scenario, cardholder: CardholderMode): Scenario {
  const [first, ...rest] = scenario.steps;
  if (cardholder === 'auto' || first?.step !== 'read_card') return scenario;
  return { ...scenario, steps: [{ step: 'wait_for_person', timeoutMs: PERSON_WAIT_MS }, ...rest] };
}

/** The scenario of an order: by the last two digits of its total for charge and authorization. */
export function scenarioFor(order: OperationOrder, cardholder: CardholderMode = 'auto'): Scenario {
  return withCardholder(scenarioByAmount(order), cardholder);
}

function scenarioByAmount(order: OperationOrder): Scenario {
  if (!SCENARIO_OPERATIONS.has(order.type)) {
    const readingType = order.original?.readingType ?? 'CHIP';
    const card = order.original?.cardType === 'DEBIT' ? 'debit' : 'credit';
    return { name: 'follow-up', card, steps: [{ step: 'read_card', readingType }, approve] };
  }
  const ending = String(totalCentavos(order.amount) % 100).padStart(2, '0');
  return SCENARIOS[ending] ?? DEFAULT_SCENARIO;
}
