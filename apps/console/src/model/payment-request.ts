/** Builds the request of the new-payment form (contract §2), so the form only holds its fields. */

export const OPERATIONS = [
  { value: 'charge', words: 'Charge' },
  { value: 'authorization', words: 'Pre-authorization' },
  { value: 'capture', words: 'Capture' },
  { value: 're_authorization', words: 'Re-authorization' },
  { value: 'pos_tip', words: 'Tip' },
  { value: 'void', words: 'Void' },
  { value: 'refund', words: 'Refund' },
] as const;

export type Operation = (typeof OPERATIONS)[number]['value'];

export interface PaymentFields {
  operation: Operation;
  serial: string;
  form: 'local' | 'cloud';
  mode: 'sync' | 'async';
  /** Whole pesos before IVA. */
  pesos: number;
  /** The two last digits of the total, which choose the scenario (charge and authorization). */
  ending: string;
  reference: string;
  tipCentavos: number;
  webhookUrl: string;
}

export interface PaymentRequest {
  path: string;
  body: Record<string, unknown>;
  clientTransactionId: string;
}

const CHOOSES_SCENARIO: readonly Operation[] = ['charge', 'authorization'];
const NAMES_REFERENCE: readonly Operation[] = ['capture', 're_authorization', 'pos_tip', 'void', 'refund'];
const TAKES_AMOUNT: readonly Operation[] = [
  'charge',
  'authorization',
  'capture',
  're_authorization',
  'refund',
];

export function namesReference(operation: Operation): boolean {
  return NAMES_REFERENCE.includes(operation);
}

export function takesAmount(operation: Operation): boolean {
  return TAKES_AMOUNT.includes(operation);
}

export function choosesScenario(operation: Operation): boolean {
  return CHOOSES_SCENARIO.includes(operation);
}

/** IVA at 16 %, and the subtotal moved by under a peso so that the total ends in `ending`. */
export function amountFor(
  pesos: number,
  ending: string | null,
): { iva: number; subtotal_iva: number; subtotal_iva0: number } {
  const subtotal = Math.round(pesos * 100);
  const iva = Math.round(subtotal * 0.16);
  const shift = ending === null ? 0 : (Number(ending) - ((subtotal + iva) % 100) + 100) % 100;
  return { iva, subtotal_iva: subtotal + shift, subtotal_iva0: 0 };
}

export function paymentRequest(fields: PaymentFields, clientTransactionId: string): PaymentRequest {
  const prefix = fields.form === 'cloud' ? `/terminal/v1/${fields.serial}` : '/terminal/v1';
  // Refund is sync only (contract §2).
  const mode = fields.operation === 'refund' ? 'sync' : fields.mode;
  const body: Record<string, unknown> = { client_transaction_id: clientTransactionId };
  if (namesReference(fields.operation)) body.transaction_reference = fields.reference.trim();
  if (takesAmount(fields.operation) && fields.pesos > 0) {
    body.amount = amountFor(fields.pesos, choosesScenario(fields.operation) ? fields.ending : null);
  }
  if (fields.operation === 'pos_tip') body.tip = fields.tipCentavos;
  if (mode === 'async' && fields.webhookUrl.trim() !== '') body.events_webhook_url = fields.webhookUrl.trim();
  return { path: `${prefix}/${mode}/${fields.operation}`, body, clientTransactionId };
}
