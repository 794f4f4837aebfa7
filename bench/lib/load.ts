import autocannon from 'autocannon';

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
  total: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Builds each request; `connection` is stable per connection (0…connections-1). */
  request: (connection: number) => LoadRequest;
}

/** Closed-loop HTTP load with autocannon: each connection sends its next request on each answer. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let nextConnection = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        setupRequest: (request, context) => {
          const ctx = context as { connection?: number };
          ctx.connection ??= nextConnection++;
          const built = options.request(ctx.connection);
          return {
            ...request,
            method: built.method,
            path: built.path,
            headers: built.headers,
            body: built.body,
          };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}
