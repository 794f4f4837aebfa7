import { signRequest, type Session } from './signing';

export interface Exchange<T = unknown> {
  method: string;
  path: string;
  /** The exact bytes signed and sent; empty without a body. */
  body: string;
  headers: Record<string, string>;
  status: number;
  answer: T;
}

/** The error body every route answers (contract §4). */
export interface ErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
}

/** Single quotes for a POSIX shell. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The same signed request as a curl command (valid while its timestamp is, ±300 s). */
export function curlOf(
  origin: string,
  exchange: Pick<Exchange, 'method' | 'path' | 'body' | 'headers'>,
): string {
  const parts = ['curl -s', '-X', exchange.method, shellQuote(`${origin}${exchange.path}`)];
  for (const [name, value] of Object.entries(exchange.headers))
    parts.push('-H', shellQuote(`${name}: ${value}`));
  if (exchange.body.length > 0) parts.push('--data-raw', shellQuote(exchange.body));
  return parts.join(' ');
}

/** Every request of the console goes through the signed routes an integrator uses. */
export class ConsoleClient {
  constructor(readonly session: Session) {}

  get merchantId(): string {
    return this.session.merchantId;
  }

  async headers(method: string, path: string, body: string): Promise<Record<string, string>> {
    const signed = await signRequest(this.session, method, path, body);
    return {
      authorization: signed.authorization,
      timestamp: signed.timestamp,
      ...(body.length > 0 ? { 'content-type': 'application/json' } : {}),
    };
  }

  async send<T = unknown>(method: string, path: string, payload?: unknown): Promise<Exchange<T>> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const headers = await this.headers(method, path, body);
    const response = await fetch(path, { method, headers, body: body.length > 0 ? body : undefined });
    const text = await response.text();
    let answer: unknown = text;
    try {
      answer = text.length > 0 ? JSON.parse(text) : {};
    } catch {
      // not JSON: shown as text
    }
    return { method, path, body, headers, status: response.status, answer: answer as T };
  }

  /** The answer of a request that must succeed; an error answer throws its message. */
  async ok<T>(method: string, path: string, payload?: unknown): Promise<T> {
    const exchange = await this.send<T>(method, path, payload);
    if (exchange.status >= 400) {
      const answer: unknown = exchange.answer;
      throw new Error(isErrorBody(answer) ? `${answer.code}: ${answer.message}` : `HTTP ${exchange.status}`);
    }
    return exchange.answer;
  }
}
