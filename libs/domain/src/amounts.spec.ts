import { amountToPesos, centavosToPesos, totalCentavos } from './amounts';

describe('amounts', () => {
  it('turns centavos into decimal pesos exactly', () => {
    expect(centavosToPesos(1600)).toBe(16);
    expect(centavosToPesos(1650)).toBe(16.5);
    expect(centavosToPesos(1)).toBe(0.01);
    expect(centavosToPesos(0)).toBe(0);
    expect(centavosToPesos(123456789)).toBe(1234567.89);
    expect(centavosToPesos(1005)).toBe(10.05);
  });

  it('refuses a non-integer amount', () => {
    expect(() => centavosToPesos(1.5)).toThrow(RangeError);
  });

  it('sums every field into the total', () => {
    const amount = {
      iva: 1600,
      subtotalIva: 10000,
      subtotalIva0: 500,
      extraTaxes: { airportTax: 1, iac: 2, ice: 3, travelAgency: 4 },
    };
    expect(totalCentavos(amount)).toBe(12110);
    expect(amountToPesos(amount)).toEqual({
      iva: 16,
      subtotalIva: 100,
      subtotalIva0: 5,
      extraTaxes: { airportTax: 0.01, iac: 0.02, ice: 0.03, travelAgency: 0.04 },
    });
  });
});
