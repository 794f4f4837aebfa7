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

/** The secrets clients of this test file signed with, for the scan of the apps' logs when it ends. */
const usedSecrets = new Set<string>();

/** The secrets signed with since the last call; the set is emptied. */
export function takeUsedSecrets(): string[] {
  const taken = [...usedSecrets];
  usedSecrets.clear();
  return taken;
}

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
  ) {
    usedSecrets.add(credentials.secret);
  }

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

  /**
   * Opens a signed server-sent event stream (GET) and reads it until `enough` holds for the
   * messages so far, then closes it; the body is the parsed `data` of each message. A refusal
   * comes back as an ordinary answer with its error body.
   */
  async stream<T = unknown>(
    path: string,
    enough: (messages: T[]) => boolean,
    timeoutMs = 15_000,
  ): Promise<ClientResponse<T[] | Record<string, unknown>>> {
    const signed = signRequest({ ...this.credentials, method: 'GET', path, body: '' });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        headers: {
          authorization: signed.authorization,
          timestamp: signed.timestamp,
          accept: 'text/event-stream',
        },
        signal: controller.signal,
      });
      if (response.status !== 200 || response.body === null) {
        return {
          status: response.status,
          headers: response.headers,
          body: (await response.json()) as Record<string, unknown>,
        };
      }
      const messages: T[] = [];
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          buffer = buffer.slice(end + 2);
          if (data.length > 0) messages.push(JSON.parse(data) as T);
        }
        if (enough(messages)) break;
      }
      return { status: response.status, headers: response.headers, body: messages };
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
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
