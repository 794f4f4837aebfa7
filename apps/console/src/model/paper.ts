import type { PrintCommand } from './types';

/** The terminal's paper roll, in characters (as the simulator prints it). */
export const PAPER_COLUMNS = 32;

/** Wraps at the last space that fits, as the terminal's printer does; a longer word is cut. */
export function wrap(paragraph: string, columns = PAPER_COLUMNS): string[] {
  const lines: string[] = [];
  let rest = paragraph.trimEnd();
  while (rest.length > columns) {
    const space = rest.lastIndexOf(' ', columns);
    const cut = space > 0 ? space : columns;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  lines.push(rest);
  return lines;
}

export type PaperLine =
  | { kind: 'text'; text: string; align: 'left' | 'center' | 'right'; bold: boolean }
  | { kind: 'qr'; value: string }
  | { kind: 'barcode'; value: string }
  | { kind: 'cut' };

/** The commands as lines of paper: text wrapped at 32 columns, codes drawn as pictures. */
export function paperLines(commands: readonly PrintCommand[]): PaperLine[] {
  return commands.flatMap((command): PaperLine[] => {
    switch (command.type) {
      case 'text':
        return command.value
          .split(/\r?\n/)
          .flatMap((paragraph) => wrap(paragraph))
          .map((text) => ({
            kind: 'text',
            text,
            align: command.align ?? 'left',
            bold: command.bold === true,
          }));
      case 'feed':
        return Array.from(
          { length: command.lines },
          () => ({ kind: 'text', text: '', align: 'left', bold: false }) as const,
        );
      case 'qr':
        return [{ kind: 'qr', value: command.value }];
      case 'barcode':
        return [{ kind: 'barcode', value: command.value }];
      case 'cut':
        return [{ kind: 'cut' }];
      default: {
        const unknown: never = command;
        throw new Error(`unknown print command ${JSON.stringify(unknown)}`);
      }
    }
  });
}
