import { signRequest } from '@tps/contracts';
import { OpenApiConformance } from './openapi-conformance';

export interface ClientResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Credentials {
  merchantId: string;
  secret: string;
}

export const DEMO_MERCHANT: Credentials = { merchantId: 'demo-merchant', secret: 'demo-secret-key' };
export const OTHER_MERCHANT: Credentials = { merchantId: 'other-merchant', secret: 'other-secret-key' };

/** One document per running API, fetched on first use; a failed fetch is tried again next time. */
const documents = new Map<string, Promise<OpenApiConformance>>();

function conformanceOf(baseUrl: string): Promise<OpenApiConformance> {
  let loading = documents.get(baseUrl);
  if (loading === undefined) {
    loading = OpenApiConformance.load(baseUrl);
    loading.catch(() => documents.delete(baseUrl));
    documents.set(baseUrl, loading);
  }
  return loading;
}

/**
 * A point of sale: signs every request as contract §5 says and sends it over real HTTP. Every
 * answer is checked against the API's own /openapi.json, so that the document and the server
 * cannot drift apart: an undeclared status or a body off its schema fails the test.
 */
export class SignedClient {
  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials = DEMO_MERCHANT,
  ) {}

  as(credentials: Credentials): SignedClient {
    return new SignedClient(this.baseUrl, credentials);
  }

  get<T = Record<string, unknown>>(path: string): Promise<ClientResponse<T>> {
    return this.send<T>('GET', path);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<ClientResponse<T>> {
    return this.send<T>('POST', path, body === undefined ? undefined : JSON.stringify(body));
  }

  patch<T = Record<string, unknown>>(path: string, body: unknown): Promise<ClientResponse<T>> {
    return this.send<T>('PATCH', path, JSON.stringify(body));
  }

  delete<T = Record<string, unknown>>(path: string): Promise<ClientResponse<T>> {
    return this.send<T>('DELETE', path);
  }

  /** Sends a raw body, signed or with the headers given (for hostile-input tests). */
  async send<T>(
    method: string,
    path: string,
    raw?: string,
    headers: Record<string, string> = {},
  ): Promise<ClientResponse<T>> {
    const signed = signRequest({ ...this.credentials, method, path, body: raw ?? '' });
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: raw,
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    const problem = (await conformanceOf(this.baseUrl)).problem(method, path, response.status, text);
    if (problem !== undefined) throw new Error(`answer off the OpenAPI document: ${problem}`);
    let body: unknown = text;
    try {
      body = text.length > 0 ? JSON.parse(text) : {};
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }
}
