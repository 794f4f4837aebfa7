import { createTpsClient, signedFetch, type Credentials, type TpsClient } from '@tps/client';

/**
 * The sandbox URL the tools share: the option given, else SANDBOX_URL, else
 * http://127.0.0.1:$API_PORT (or $PORT, or 3000).
 */
export function sandboxUrl(option: string | undefined): string {
  const port = process.env.API_PORT ?? process.env.PORT ?? '3000';
  return (option ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
}

/** The account of MERCHANT_ID and SECRET_KEY (the demo merchant by default), as `npm run sign` takes them. */
export function toolCredentials(): Credentials {
  return {
    merchantId: process.env.MERCHANT_ID ?? 'demo-merchant',
    secretKey: process.env.SECRET_KEY ?? 'demo-secret-key',
  };
}

/**
 * Signed calls to the sandbox (contract §5) through the typed client (`api`), and `call` for a
 * request the tool prints as it sends it.
 */
export class SandboxClient {
  readonly credentials = toolCredentials();
  readonly api: TpsClient;
  private readonly signed = signedFetch(this.credentials);

  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.api = createTpsClient({
      baseUrl,
      ...this.credentials,
      fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    });
  }

  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    accept = 'application/json',
    timeoutMs = this.timeoutMs,
  ): Promise<Response> {
    return this.signed(
      new Request(`${this.baseUrl}${path}`, {
        method,
        headers: { accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      }),
    );
  }
}
