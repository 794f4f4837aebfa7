/**
 * The sandbox's URL as every tool of this repository reads it: SANDBOX_URL, else
 * http://127.0.0.1:$API_PORT (or $PORT, or 3000), without a trailing slash.
 */
export function sandboxUrlOf(env: NodeJS.ProcessEnv): string {
  const port = env.API_PORT ?? env.PORT ?? '3000';
  return (env.SANDBOX_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
}
