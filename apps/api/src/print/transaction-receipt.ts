import { totalCentavos, type AmountCentavos } from '@tps/domain';
import type { AuthorizationResponse, PrintCommand } from '@tps/contracts';

/** What the standard receipt of a transaction is printed from. */
export interface ReceiptSource {
  merchantId: string;
  terminalSerial: string;
  amount: AmountCentavos;
  tip: number;
  transactionReference: string;
  response: AuthorizationResponse;
}

const COLUMNS = 32;
const MEXICO_CITY = 'America/Mexico_City';

/** 123456 centavos → "$1,234.56", in integers so that no float rounding shows on paper. */
export function money(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const pesos = Math.trunc(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${pesos}.${(abs % 100).toString().padStart(2, '0')}`;
}

/** Epoch milliseconds as the wall clock of Mexico City shows them: "2026-11-23 03:45:12". */
export function mexicoCityTime(epochMs: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: MEXICO_CITY,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(epochMs));
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** A label on the left, its value on the right, on one 32-column line. */
function row(label: string, value: string, bold = false): PrintCommand {
  const room = Math.max(0, COLUMNS - value.length - 1);
  return line(`${label.slice(0, room).padEnd(room)} ${value}`, 'left', bold);
}

function line(value: string, align: 'left' | 'center' | 'right' = 'left', bold = false): PrintCommand {
  return bold ? { type: 'text', value, align, bold } : { type: 'text', value, align };
}

/** A UUID is 36 characters: split at its middle dash rather than wherever the paper ends. */
function reference(value: string): PrintCommand[] {
  const parts = value.split('-');
  if (value.length <= COLUMNS || parts.length < 4) return [line(value, 'right')];
  return [line(`${parts.slice(0, 3).join('-')}-`, 'right'), line(parts.slice(3).join('-'), 'right')];
}

const EXTRA_TAX_LABELS: Record<keyof AmountCentavos['extraTaxes'], string> = {
  airportTax: 'Airport tax',
  iac: 'IAC',
  ice: 'ICE',
  travelAgency: 'Travel agency',
};

/**
 * The standard receipt of a transaction: merchant, date and time in Mexico City, the masked
 * card, the amounts with IVA, the authorization code and, when the card asks for it, a line to
 * sign on. Built as ordinary print commands, so the terminal prints it like any other job.
 */
export function transactionReceipt(source: ReceiptSource): PrintCommand[] {
  const { response, amount } = source;
  const card = response.cardData;
  const raw = response.rawResponse;
  const extraTaxes = (Object.keys(EXTRA_TAX_LABELS) as Array<keyof typeof EXTRA_TAX_LABELS>)
    .filter((key) => amount.extraTaxes[key] !== 0)
    .map((key) => row(EXTRA_TAX_LABELS[key], money(amount.extraTaxes[key])));
  const commands: PrintCommand[] = [
    line(source.merchantId, 'center', true),
    line(`Terminal ${source.terminalSerial}`, 'center'),
    line(mexicoCityTime(response.timestamp), 'center'),
    line('Mexico City time', 'center'),
    { type: 'feed', lines: 1 },
    line(raw.transaction_type.replace(/_/g, ' '), 'center', true),
    line(`${raw.franchise} ${card.cardType}`),
    row(card.pan, card.entryMode),
    { type: 'feed', lines: 1 },
    row('Subtotal', money(amount.subtotalIva)),
    row('Subtotal IVA 0%', money(amount.subtotalIva0)),
    row('IVA', money(amount.iva)),
    ...extraTaxes,
    ...(source.tip !== 0 ? [row('Tip', money(source.tip))] : []),
    row('TOTAL MXN', money(totalCentavos(amount) + source.tip), true),
    { type: 'feed', lines: 1 },
    line(response.approved ? 'APPROVED' : 'DECLINED', 'center', true),
    row('Auth code', response.authCode),
    row('Ticket', raw.ticket_number),
    line('Reference'),
    ...reference(source.transactionReference),
  ];
  if (card.showReciptSignature) {
    commands.push(
      { type: 'feed', lines: 2 },
      line('_'.repeat(COLUMNS)),
      line('Signature', 'center'),
      line(card.cardHolderName, 'center'),
    );
  } else {
    commands.push({ type: 'feed', lines: 1 }, line('No signature required', 'center'));
  }
  commands.push({ type: 'feed', lines: 2 }, { type: 'cut' });
  return commands;
}
