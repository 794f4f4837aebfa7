import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from 'pg';
import { AppProcess } from './app-process';
import { Stack } from './stack';
import { TEST_POSTGRES_URL } from './test-store';

/** Whether the PostgreSQL server holds the database of this URL. */
async function databaseExists(url: string): Promise<boolean> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      new URL(url).pathname.slice(1),
    ]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

describe('Stack.start when an app fails to start', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(['sqlite', 'postgres'] as const)(
    'stops what started and removes the files and databases it made (%s)',
    async (store) => {
      const started: Array<{ name: string; env: Record<string, string>; stopped: boolean }> = [];
      // The API starts; the simulator refuses to (as a real one that cannot open its store).
      jest.spyOn(AppProcess, 'start').mockImplementation(async (name, _entry, env) => {
        const app = { name, env, stopped: false };
        started.push(app);
        if (name !== 'api') throw new Error(`${name} refused to start`);
        return { url: 'http://127.0.0.1:9', stop: async () => void (app.stopped = true) } as AppProcess;
      });
      await expect(Stack.start({ store })).rejects.toThrow('terminal-simulator refused to start');
      const [api, simulator] = started;
      expect(api.stopped).toBe(true);
      expect(existsSync(dirname(api.env.SECRETS_KEY_FILE))).toBe(false);
      if (store === 'postgres') {
        expect(await databaseExists(api.env.DATABASE_URL)).toBe(false);
        expect(await databaseExists(simulator.env.DATABASE_URL)).toBe(false);
      }
    },
  );
});
