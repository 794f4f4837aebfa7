import autocannon from 'autocannon';
import { percentile } from './stats';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Answers of any status, and the 2xx among them. */
  total: number;
  ok: number;
  /** Answers by status code, so a refusal is named in the report instead of counted as work. */
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Builds each request of connection `connection` (0…connections-1). */
  request: (connection: number) => LoadRequest;
}

/**
 * Closed-loop HTTP load: each connection sends its next request on each answer. One autocannon
 * instance per connection, all in this process, because autocannon clears a request's context
 * on every loop and gives `setupRequest` no stable connection identity; a terminal runs one
 * operation at a time, so connection c must always speak to terminal c.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const runs = Array.from({ length: options.connections }, (_, connection) => {
    let finished!: (error: Error | null) => void;
    const done = new Promise<void>((resolve, reject) => {
      finished = (error) => (error ? reject(error) : resolve());
    });
    const instance = autocannon(
      {
        url: options.url,
        connections: 1,
        duration: options.durationSeconds,
        requests: [
          {
            setupRequest: (request) => {
              const built = options.request(connection);
              return { ...request, ...built };
            },
          },
        ],
      },
      (error: unknown) => finished(error instanceof Error ? error : null),
    );
    instance.on('response', (_client, statusCode: number, _bytes: number, responseTime: number) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    instance.on('reqError', () => {
      errors++;
    });
    return done;
  });
  await Promise.all(runs);
  const total = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  return {
    rps: latencies.length / options.durationSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: total - latencies.length,
    errors,
    total,
    ok: latencies.length,
    statusCodes,
  };
}

/** A load's answers that were not 2xx, by status code. */
export function refusedOf(result: LoadResult): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodes).filter(([status]) => !status.startsWith('2')));
}
