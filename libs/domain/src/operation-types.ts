export const OPERATION_TYPES = [
  'charge',
  'authorization',
  'capture',
  're_authorization',
  'pos_tip',
  'void',
  'refund',
  'abort',
] as const;

export type OperationType = (typeof OPERATION_TYPES)[number];

export type OperationMode = 'sync' | 'async';

export const READING_TYPES = ['CHIP', 'CONTACTLESS', 'MAGNETIC_STRIPE'] as const;
export type ReadingType = (typeof READING_TYPES)[number];

export const TERMINAL_PACES = ['instant', 'fast', 'realistic'] as const;
export type TerminalPace = (typeof TERMINAL_PACES)[number];

/** Operations whose own references also stand for the transaction they acted on (contract §2). */
export function referenceStandsForTarget(type: OperationType): boolean {
  return type === 're_authorization' || type === 'pos_tip';
}

/** Contract §15: `manual` makes every operation wait at TERMINAL_ACKNOWLEDGED for a person's card action. */
export const CARDHOLDER_MODES = ['auto', 'manual'] as const;
export type CardholderMode = (typeof CARDHOLDER_MODES)[number];
