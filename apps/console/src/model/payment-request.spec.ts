import { amountFor, paymentRequest, type PaymentFields } from './payment-request';

const base: PaymentFields = {
  operation: 'charge',
  serial: 'SIM0000002',
  form: 'cloud',
  mode: 'async',
  pesos: 100,
  ending: '51',
  reference: '',
  tipCentavos: 0,
  webhookUrl: 'http://127.0.0.1:4000/hook',
};

describe('new payment request', () => {
  it('makes the total end in the chosen scenario digits', () => {
    expect(amountFor(100, '51')).toEqual({ iva: 1600, subtotal_iva: 10051, subtotal_iva0: 0 });
    const odd = amountFor(3.1, '97');
    expect((odd.iva + odd.subtotal_iva) % 100).toBe(97);
  });

  it('builds the Cloud-form async charge with its webhook', () => {
    expect(paymentRequest(base, 'id-1')).toEqual({
      path: '/terminal/v1/SIM0000002/async/charge',
      clientTransactionId: 'id-1',
      body: {
        client_transaction_id: 'id-1',
        amount: { iva: 1600, subtotal_iva: 10051, subtotal_iva0: 0 },
        events_webhook_url: 'http://127.0.0.1:4000/hook',
      },
    });
  });

  it('a refund is sync only and names its reference; a tip carries no amount', () => {
    const refund = paymentRequest(
      { ...base, operation: 'refund', reference: ' ref ', form: 'local' },
      'id-2',
    );
    expect(refund.path).toBe('/terminal/v1/sync/refund');
    expect(refund.body).toEqual({
      client_transaction_id: 'id-2',
      transaction_reference: 'ref',
      amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    });
    const tip = paymentRequest({ ...base, operation: 'pos_tip', reference: 'ref', tipCentavos: 500 }, 'id-3');
    expect(tip.body).toEqual({
      client_transaction_id: 'id-3',
      transaction_reference: 'ref',
      tip: 500,
      events_webhook_url: 'http://127.0.0.1:4000/hook',
    });
  });
});
