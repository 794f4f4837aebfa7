import type { PrintCommand } from './types';

// The terminal's own line breaking (a pure file of libs/domain, bundled into the console).
import { wrap } from '../../../../libs/domain/src/paper-roll';

export { wrap };

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
