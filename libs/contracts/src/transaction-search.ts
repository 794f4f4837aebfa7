import type { AmountCentavos, BusinessState, LifecycleStatus, OperationType, ReadingType } from '@tps/domain';
import { totalCentavos } from '@tps/domain';
import type { AuthorizationResponse } from './authorization-response';
import { readingTypeOfEntryMode } from './entry-modes';

/** Filters of contract §7 once validated; times in ms on the merchant clock. */
export interface SearchFilters {
  clientTransactionId?: string;
  transactionReference?: string;
  status?: LifecycleStatus;
  operationType?: OperationType;
  fromMs?: number;
  toMs?: number;
  terminalSerial?: string;
  limit: number;
  cursor?: string;
}

export interface SearchAmount {
  iva: number;
  subtotal_iva: number;
  subtotal_iva0: number;
  extra_taxes: { airport_tax: number; iac: number; ice: number; travel_agency: number };
  tip: number;
  total: number;
}

export interface SearchCard {
  pan: string;
  franchise: string;
  card_type: string;
  reading_type: ReadingType | null;
}

export interface SearchEvent {
  event_id: string;
  status: LifecycleStatus;
  previous_status: string;
  occurred_at: string;
}

export interface SearchItem {
  client_transaction_id: string;
  transaction_reference: string | null;
  operation_type: OperationType;
  status: LifecycleStatus | null;
  business_state: BusinessState | null;
  terminal_serial: string;
  amount: SearchAmount;
  card: SearchCard | null;
  created_at: string;
  events: SearchEvent[];
}

export interface SearchAnswer {
  items: SearchItem[];
  next_cursor: string | null;
}

/** An amount in centavos as search answers it, snake_case, with the tip and the total. */
export function searchAmount(amount: AmountCentavos, tip: number): SearchAmount {
  const t = amount.extraTaxes;
  return {
    iva: amount.iva,
    subtotal_iva: amount.subtotalIva,
    subtotal_iva0: amount.subtotalIva0,
    extra_taxes: { airport_tax: t.airportTax, iac: t.iac, ice: t.ice, travel_agency: t.travelAgency },
    tip,
    total: totalCentavos(amount) + tip,
  };
}

/** The card an acquirer answer names (masked), or null when no acquirer answered. */
export function searchCard(response: AuthorizationResponse | null): SearchCard | null {
  if (response === null) return null;
  return {
    pan: response.cardData.pan,
    franchise: response.rawResponse.franchise,
    card_type: response.rawResponse.card_type,
    reading_type: readingTypeOfEntryMode(response.cardData.entryMode) ?? null,
  };
}

/** Approved transactions only carry their reference (contract §7). */
export function searchReference(response: AuthorizationResponse | null): string | null {
  return response !== null && response.approved ? response.rawResponse.transaction_reference : null;
}

/** An opaque page cursor: the position (created time, tie-break key) of the last item answered. */
export interface SearchPosition {
  at: string;
  key: string;
}

export function encodeCursor(position: SearchPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.key])).toString('base64url');
}

export function decodeCursor(cursor: string): SearchPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { at: value[0], key: value[1] };
    }
  } catch {
    // not a cursor of ours
  }
  return undefined;
}
