import { Client, type QueryResult } from 'pg';

/** How long the check waits for each answer: a pooler with one server connection may make it wait. */
const CHECK_TIMEOUT_MS = 3000;

async function backendPid(client: Client, sql: string): Promise<number> {
  // Several statements in one query answer a result each; the last is the SELECT's.
  const result = (await client.query(sql)) as QueryResult | QueryResult[];
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return Number((last.rows[0] as { pid: number }).pid);
}

/**
 * Whether a connection to `url` keeps one server session between its transactions, as a direct
 * connection and a session-mode pooler do. A transaction-mode pooler (PgBouncer's usual mode)
 * does not: a session-level advisory lock or a LISTEN made on it would stay on a server session
 * that another client then gets. Two clients each hold a transaction; once both ended, the one
 * that ended first asks for its session's id again: a pooler that hands out the server
 * connection last given back (PgBouncer's default) answers the other client's. `undefined`
 * when nothing could be told (the pooler had no second server connection to give).
 */
export async function keepsSessions(url: string, applicationName?: string): Promise<boolean | undefined> {
  const clients = [0, 1].map(
    () =>
      new Client({
        connectionString: url,
        application_name: applicationName,
        connectionTimeoutMillis: CHECK_TIMEOUT_MS,
        query_timeout: CHECK_TIMEOUT_MS,
      }),
  );
  try {
    for (const client of clients) {
      client.on('error', () => undefined);
      await client.connect();
    }
    const [first, second] = clients;
    await backendPid(first, 'BEGIN; SELECT pg_backend_pid() AS pid');
    let secondPid: number;
    try {
      secondPid = await backendPid(second, 'BEGIN; SELECT pg_backend_pid() AS pid');
    } catch {
      return undefined;
    }
    await second.query('COMMIT');
    await first.query('COMMIT');
    return (await backendPid(second, 'SELECT pg_backend_pid() AS pid')) === secondPid;
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
