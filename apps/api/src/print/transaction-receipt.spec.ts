import type { AuthorizationResponse, PrintCommand } from '@tps/contracts';
import { mexicoCityTime, money, transactionReceipt, type ReceiptSource } from './transaction-receipt';

function response(showReciptSignature: boolean): AuthorizationResponse {
  return {
    approved: true,
    responseCode: '00',
    authCode: 'A1B2C3',
    issuerAuthenticationData: '',
    issuerScript1: '',
    issuerScript2: '',
    message: 'approved',
    rawResponse: {
      authorized_amount: 11650,
      card_type: 'CREDIT',
      cvm_type: 'NO_CVM',
      franchise: 'VISA',
      service_response: { code: '000', message: 'approved' },
      transaction_reference: '0b6c1a9e-2f4d-4c1b-9a8e-7d6f5e4c3b2a',
      transaction_status: 'APPROVED',
      transaction_type: 'SALE',
      ticket_number: '12345678',
      F11: '000001',
      message_fields: { F38: 'A1B2C3', F39: '00', F55: '' },
    },
    cardData: {
      pan: '************4242',
      cardHolderName: 'SANDBOX/CARDHOLDER',
      cardType: 'CREDIT',
      entryMode: 'SWIPE',
      showReciptSignature,
      cvm: 'NO_CVM',
      aid: 'A0000000031010',
      bin: '424242',
      isOnlinePinMandatory: false,
    },
    // 2026-11-23T06:30:00Z is 00:30 in Mexico City (UTC-6): the calendar day differs.
    timestamp: Date.UTC(2026, 10, 23, 6, 30, 0),
  };
}

function source(showReciptSignature: boolean, tip = 0): ReceiptSource {
  return {
    merchantId: 'demo-merchant',
    terminalSerial: 'SIM0000002',
    amount: {
      iva: 1600,
      subtotalIva: 10000,
      subtotalIva0: 50,
      extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
    },
    tip,
    transactionReference: '0b6c1a9e-2f4d-4c1b-9a8e-7d6f5e4c3b2a',
    response: response(showReciptSignature),
  };
}

function texts(commands: PrintCommand[]): string[] {
  return commands.flatMap((c) => (c.type === 'text' ? [c.value] : []));
}

describe('transactionReceipt', () => {
  it('carries merchant, Mexico City time, masked card, amounts with IVA and the auth code', () => {
    const lines = texts(transactionReceipt(source(false)));
    expect(lines).toContain('demo-merchant');
    expect(lines).toContain('2026-11-23 00:30:00');
    expect(lines.some((l) => l.startsWith('************4242') && l.endsWith('SWIPE'))).toBe(true);
    expect(lines.find((l) => l.startsWith('Subtotal '))).toMatch(/\$100\.00$/);
    expect(lines.find((l) => l.startsWith('IVA '))).toMatch(/\$16\.00$/);
    expect(lines.find((l) => l.startsWith('TOTAL MXN'))).toMatch(/\$116\.50$/);
    expect(lines.find((l) => l.startsWith('Auth code'))).toMatch(/A1B2C3$/);
    expect(lines.join('')).toContain('0b6c1a9e-2f4d-4c1b-9a8e-7d6f5e4c3b2a');
    expect(lines).toContain('No signature required');
    expect(lines).not.toContain('_'.repeat(32));
  });

  it('adds a signature line when the card data asks for it', () => {
    const lines = texts(transactionReceipt(source(true)));
    expect(lines).toContain('_'.repeat(32));
    expect(lines).toContain('Signature');
    expect(lines).not.toContain('No signature required');
  });

  it('adds the tip to the total', () => {
    const lines = texts(transactionReceipt(source(false, 1000)));
    expect(lines.find((l) => l.startsWith('Tip '))).toMatch(/\$10\.00$/);
    expect(lines.find((l) => l.startsWith('TOTAL MXN'))).toMatch(/\$126\.50$/);
  });

  it('keeps every text line within 32 columns and ends with a cut', () => {
    const commands = transactionReceipt(source(true));
    for (const value of texts(commands)) expect(value.length).toBeLessThanOrEqual(32);
    expect(commands[commands.length - 1]).toEqual({ type: 'cut' });
  });
});

describe('money and time', () => {
  it('formats centavos exactly', () => {
    expect(money(0)).toBe('$0.00');
    expect(money(5)).toBe('$0.05');
    expect(money(123456789)).toBe('$1,234,567.89');
  });

  it('shows Mexico City wall time (UTC-6)', () => {
    expect(mexicoCityTime(Date.UTC(2026, 0, 1, 12, 0, 0))).toBe('2026-01-01 06:00:00');
  });
});
