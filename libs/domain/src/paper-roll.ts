/** The width of the terminal's paper roll, in characters. */
export const RECEIPT_COLUMNS = 32;

/**
 * Wraps one paragraph at the last space that fits, keeping the spacing inside a line (receipts
 * line up columns with spaces); a word longer than the line is cut. The terminal prints with it
 * and the console draws paper with it, so both break lines alike.
 */
export function wrap(paragraph: string, columns = RECEIPT_COLUMNS): string[] {
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
