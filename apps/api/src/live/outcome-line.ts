import type { TransactionEvent } from '@tps/contracts';

function pesos(event: TransactionEvent): string {
  const { iva, subtotalIva, subtotalIva0, extraTaxes, tip = 0 } = event.operation.amount;
  const taxes = extraTaxes.airportTax + extraTaxes.iac + extraTaxes.ice + extraTaxes.travelAgency;
  return (iva + subtotalIva + subtotalIva0 + taxes + tip).toFixed(2);
}

/** One line per payment outcome on the API's console: terminal, operation, amount, outcome, ms. */
export function outcomeLine(event: TransactionEvent, elapsedMs: number | undefined): string {
  const code = event.failure_reason === undefined ? '' : ` ${event.failure_reason.code}`;
  const ms = elapsedMs === undefined ? '? ms' : `${elapsedMs} ms`;
  return `${event.terminal.serialNumber} ${event.operation.type} ${pesos(event)} ${event.status}${code} ${ms}`;
}
