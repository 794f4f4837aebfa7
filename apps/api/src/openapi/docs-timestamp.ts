/** What Swagger UI hands its `parameterMacro`: the parameter, and its default if any. */
interface DocsParameter {
  name?: string;
  in?: string;
  default?: unknown;
}

/**
 * Fills the `timestamp` header of "Try it out" in /docs with the time the page was opened, in
 * place of a fixed example that would be stale; `signDocsRequest` sends the time of sending.
 * Swagger UI receives this function's source text, so it must stay self-contained.
 */
export function currentTimestamp(_operation: unknown, parameter: DocsParameter): unknown {
  if (parameter.in === 'header' && parameter.name === 'timestamp')
    return String(Math.floor(Date.now() / 1000));
  return parameter.default;
}
