import type { PrintAlignment, PrintCommand } from '@tps/contracts';
import { RECEIPT_COLUMNS, wrap } from '@tps/domain';

const CUT_LABEL = ' cut ';

/** Tabs and other control characters would break the columns; each becomes one space. */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, ' ');
}

export function align(line: string, alignment: PrintAlignment, columns = RECEIPT_COLUMNS): string {
  const gap = columns - line.length;
  switch (alignment) {
    case 'left':
      return line;
    case 'center':
      return `${' '.repeat(Math.floor(gap / 2))}${line}`;
    case 'right':
      return `${' '.repeat(gap)}${line}`;
    default: {
      const unknownAlignment: never = alignment;
      throw new Error(`unknown alignment ${String(unknownAlignment)}`);
    }
  }
}

function text(value: string, alignment: PrintAlignment): string[] {
  return printable(value)
    .split('\n')
    .flatMap((paragraph) => wrap(paragraph))
    .map((line) => align(line, alignment));
}

/** A barcode drawn as bars from the bits of its characters, with its text beneath. */
function barcode(value: string): string[] {
  const bits = [...value].flatMap((c) => [...c.charCodeAt(0).toString(2).padStart(8, '0')]);
  const bars = Array.from({ length: RECEIPT_COLUMNS - 4 }, (_, i) =>
    bits[i % bits.length] === '1' ? '|' : ' ',
  );
  return [`||${bars.join('')}||`, ...text(value, 'center')];
}

function qr(value: string): string[] {
  return ['[QR]', ...wrap(printable(value).replace(/\n/g, ' '))].map((line) => align(line, 'center'));
}

function cutLine(): string {
  const left = Math.floor((RECEIPT_COLUMNS - CUT_LABEL.length) / 2);
  return `${'-'.repeat(left)}${CUT_LABEL}${'-'.repeat(RECEIPT_COLUMNS - CUT_LABEL.length - left)}`;
}

function render(command: PrintCommand): string[] {
  switch (command.type) {
    case 'text':
      // Bold changes the print head, not the characters: the text record shows the words.
      return text(command.value, command.align ?? 'left');
    case 'qr':
      return qr(command.value);
    case 'barcode':
      return barcode(command.value);
    case 'feed':
      return Array.from({ length: command.lines }, () => '');
    case 'cut':
      return [cutLine()];
    default: {
      const unknownCommand: never = command;
      throw new Error(`unknown print command ${JSON.stringify(unknownCommand)}`);
    }
  }
}

/** The commands as the paper shows them: lines of at most 32 characters, no trailing spaces. */
export function renderReceipt(commands: readonly PrintCommand[]): string {
  return commands
    .flatMap(render)
    .map((line) => line.trimEnd())
    .join('\n');
}
