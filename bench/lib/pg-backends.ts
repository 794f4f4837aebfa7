import { Client } from 'pg';

/**
 * The server processes of PostgreSQL that serve connections to some databases, found through
 * `pg_stat_activity` on a connection of its own (to the server's `postgres` database, so that it
 * is not one of them). The server must run on this machine for /proc to know the processes.
 */
export class PgBackends {
  private constructor(
    private readonly client: Client,
    private readonly databases: string[],
  ) {}

  /** `urls`: postgres:// URLs; their database names are the ones whose backends are listed. */
  static async open(serverUrl: string, urls: string[]): Promise<PgBackends> {
    const client = new Client({ connectionString: serverUrl, application_name: 'tps-bench-cpu' });
    await client.connect();
    const databases = urls.map((url) => decodeURIComponent(new URL(url).pathname.slice(1)));
    return new PgBackends(client, databases);
  }

  async pids(): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = ANY($1::text[])',
      [this.databases],
    );
    return rows.map((row) => row.pid);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
