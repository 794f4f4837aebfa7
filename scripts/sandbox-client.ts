import { signRequest } from '@tps/contracts';

/**
 * The sandbox URL the tools share: the option given, else SANDBOX_URL, else
 * http://127.0.0.1:$API_PORT (or $PORT, or 3000).
 */
export function sandboxUrl(option: string | undefined): string {
  const port = process.env.API_PORT ?? process.env.PORT ?? '3000';
  return (option ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
}

/**
 * Signed calls to the sandbox (contract §5) as the account of MERCHANT_ID and SECRET_KEY (the demo
 * merchant by default), as `npm run sign` takes them.
 */
export class SandboxClient {
  private readonly merchantId = process.env.MERCHANT_ID ?? 'demo-merchant';
  private readonly secret = process.env.SECRET_KEY ?? 'demo-secret-key';

  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    accept = 'application/json',
    timeoutMs = this.timeoutMs,
  ): Promise<Response> {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const signed = signRequest({ merchantId: this.merchantId, secret: this.secret, method, path, body: raw });
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        accept,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: raw }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }
}
