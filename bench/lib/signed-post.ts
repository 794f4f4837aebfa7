import { signRequest } from '@tps/contracts';
import { Pool } from 'undici';
import { DEMO_MERCHANT, type Credentials } from '@tps/testing';

/**
 * The benchmark's point of sale: signed POSTs over one keep-alive pool, with nothing else. The
 * tests' SignedClient also checks every answer against the OpenAPI document and goes through
 * WHATWG fetch; in a benchmark that is the load generator's CPU, taken from the same two cores
 * as the apps it measures.
 */
export class SignedPoster {
  private readonly pool: Pool;

  constructor(
    baseUrl: string,
    connections: number,
    private readonly credentials: Credentials = DEMO_MERCHANT,
  ) {
    this.pool = new Pool(baseUrl, { connections });
  }

  /** Sends the body signed and returns the answer's status; the answer's body is read and dropped. */
  async post(path: string, body: string): Promise<number> {
    const signed = signRequest({ ...this.credentials, method: 'POST', path, body });
    const response = await this.pool.request({
      method: 'POST',
      path,
      body,
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        'content-type': 'application/json',
      },
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    await response.body.dump();
    return response.statusCode;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
