import type { ReadingType } from '@tps/domain';

/** cardData.entryMode of the Authorization response for each reading type of the events. */
export const ENTRY_MODES: Record<ReadingType, string> = {
  CHIP: 'CHIP',
  CONTACTLESS: 'CONTACTLESS',
  MAGNETIC_STRIPE: 'SWIPE',
};

/** The reading type an Authorization response's entryMode stands for. */
export function readingTypeOfEntryMode(entryMode: string): ReadingType | undefined {
  const found = Object.entries(ENTRY_MODES).find(([, mode]) => mode === entryMode);
  return found === undefined ? undefined : (found[0] as ReadingType);
}
