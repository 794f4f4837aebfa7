/** Amounts in the smallest MXN unit (centavos), as every request carries them. */
export interface ExtraTaxesCentavos {
  airportTax: number;
  iac: number;
  ice: number;
  travelAgency: number;
}

export interface AmountCentavos {
  iva: number;
  subtotalIva: number;
  subtotalIva0: number;
  extraTaxes: ExtraTaxesCentavos;
}

/** The same amount in decimal pesos, the unit of every event's `operation.amount`. */
export interface AmountPesos {
  iva: number;
  subtotalIva: number;
  subtotalIva0: number;
  extraTaxes: ExtraTaxesCentavos;
}

export const ZERO_AMOUNT: AmountCentavos = {
  iva: 0,
  subtotalIva: 0,
  subtotalIva0: 0,
  extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
};

export function totalCentavos(amount: AmountCentavos): number {
  const t = amount.extraTaxes;
  return (
    amount.iva + amount.subtotalIva + amount.subtotalIva0 + t.airportTax + t.iac + t.ice + t.travelAgency
  );
}

/** 1650 centavos → 16.5 pesos. Integer division keeps the value exact for any safe integer. */
export function centavosToPesos(centavos: number): number {
  if (!Number.isSafeInteger(centavos)) {
    throw new RangeError(`centavos must be a safe integer, got ${centavos}`);
  }
  const sign = centavos < 0 ? -1 : 1;
  const abs = Math.abs(centavos);
  return sign * (Math.trunc(abs / 100) + (abs % 100) / 100);
}

export function amountToPesos(amount: AmountCentavos): AmountPesos {
  const t = amount.extraTaxes;
  return {
    iva: centavosToPesos(amount.iva),
    subtotalIva: centavosToPesos(amount.subtotalIva),
    subtotalIva0: centavosToPesos(amount.subtotalIva0),
    extraTaxes: {
      airportTax: centavosToPesos(t.airportTax),
      iac: centavosToPesos(t.iac),
      ice: centavosToPesos(t.ice),
      travelAgency: centavosToPesos(t.travelAgency),
    },
  };
}
