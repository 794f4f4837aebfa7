/**
 * A parsed JSON value written one way only: object keys sorted, no whitespace, numbers as
 * JavaScript prints them. Two bodies that differ only in key order, whitespace or number spelling
 * (`1600` and `1600.0`, `1e3` and `1000`) write the same text; a different value writes another.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
