import type { AuthorizationResponse } from './authorization-response';
import { readingTypeOfEntryMode } from './entry-modes';
import { decodeCursor, encodeCursor, searchAmount, searchCard, searchReference } from './transaction-search';

describe('transaction search items', () => {
  it('answers amounts in centavos, snake_case, with tip and total', () => {
    const amount = {
      iva: 1600,
      subtotalIva: 10000,
      subtotalIva0: 50,
      extraTaxes: { airportTax: 1, iac: 2, ice: 3, travelAgency: 4 },
    };
    expect(searchAmount(amount, 500)).toEqual({
      iva: 1600,
      subtotal_iva: 10000,
      subtotal_iva0: 50,
      extra_taxes: { airport_tax: 1, iac: 2, ice: 3, travel_agency: 4 },
      tip: 500,
      total: 12160,
    });
  });

  it('names the masked card and the reference of an approval only', () => {
    const response = {
      approved: true,
      rawResponse: { franchise: 'VISA', card_type: 'CREDIT', transaction_reference: 'ref-1' },
      cardData: { pan: '************4242', entryMode: 'SWIPE' },
    } as unknown as AuthorizationResponse;
    expect(searchCard(response)).toEqual({
      pan: '************4242',
      franchise: 'VISA',
      card_type: 'CREDIT',
      reading_type: 'MAGNETIC_STRIPE',
    });
    expect(searchReference(response)).toBe('ref-1');
    expect(searchReference({ ...response, approved: false })).toBeNull();
    expect(searchCard(null)).toBeNull();
  });

  it('maps every entry mode back to its reading type', () => {
    expect(readingTypeOfEntryMode('CHIP')).toBe('CHIP');
    expect(readingTypeOfEntryMode('CONTACTLESS')).toBe('CONTACTLESS');
    expect(readingTypeOfEntryMode('SWIPE')).toBe('MAGNETIC_STRIPE');
    expect(readingTypeOfEntryMode('FALLBACK')).toBeUndefined();
  });

  it('round-trips a cursor and refuses anything else', () => {
    const position = { at: '1795334400123', key: 'b7c1' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    for (const bad of [
      '',
      'not-a-cursor',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('{}').toString('base64url'),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });
});
