/**
 * BENCHMARKS.md's sections written by benchmarks of their own (`## <title>` to the next `## `):
 * each run replaces its own section and keeps the rest.
 */

/** The section titled `title` (its `## ` line given whole), if `markdown` has one. */
export function sectionOf(markdown: string, title: string): string | undefined {
  const start = markdown.indexOf(`${title}\n`);
  if (start < 0) return undefined;
  const next = markdown.indexOf('\n## ', start + title.length);
  return next >= 0 ? markdown.slice(start, next + 1) : markdown.slice(start);
}

/** `markdown` with the section titled `title` replaced if there, else put before "Where the time goes", else at the end. */
export function withSectionTitled(markdown: string, title: string, section: string): string {
  const start = markdown.indexOf(`${title}\n`);
  if (start >= 0) {
    const next = markdown.indexOf('\n## ', start + title.length);
    return markdown.slice(0, start) + section + (next >= 0 ? markdown.slice(next + 1) : '');
  }
  const before = markdown.indexOf('\n## Where the time goes\n');
  if (before >= 0) return `${markdown.slice(0, before + 1)}${section}\n${markdown.slice(before + 1)}`;
  return `${markdown.trimEnd()}\n\n${section}`;
}
