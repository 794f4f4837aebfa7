/** The path of the first `null` in a parsed body (`amount`, `commands[2].value`), if any. */
export function firstNullPath(body: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object') continue;
    if (value === null) return path === '' ? undefined : path;
    // Pushed in reverse, so the first null in the order the caller wrote is the one named.
    const entries = Array.isArray(value)
      ? value.map((item, index) => ({ value: item as unknown, path: `${path}[${index}]` }))
      : Object.entries(value).map(([key, item]) => ({
          value: item as unknown,
          path: path === '' ? key : `${path}.${key}`,
        }));
    for (let i = entries.length - 1; i >= 0; i--) pending.push(entries[i]);
  }
  return undefined;
}
