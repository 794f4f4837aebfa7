import { existsSync } from 'node:fs';
import { Stack, type AppProcess } from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';

/**
 * Both apps on SQLite keep their hot statements prepared on each connection; SQLite closes a
 * connection only once they are finalized. A stop closes every connection (the reads', and the
 * writer's own): the last one to close a file in WAL checkpoints its log and removes it.
 */
describe('the apps on SQLite when they stop', () => {
  let stack: Stack;

  afterAll(() => stack?.stop());

  it('close every connection, kept statements and all: no error, and no log file left beside a database', async () => {
    stack = await Stack.start();
    // Reads and writes on both apps, each on statements they keep.
    const charged = await stack
      .client()
      .post<Json>('/terminal/v1/SIM0000002/sync/charge', newBody({ amount: amountOf(1000) }));
    expect(charged.status).toBe(200);
    await stack.waitQueueDrained();
    const files = { api: stack.apiDatabase, terminal: stack.store.sqliteFile('terminal') };
    expect(existsSync(`${files.api}-wal`)).toBe(true);
    expect(existsSync(`${files.terminal}-wal`)).toBe(true);

    /** The lines of a close that failed, once the app has stopped. */
    const stopped = async (app: AppProcess): Promise<string[]> => {
      await app.terminate();
      return app.text.split('\n').filter((line) => /Failed to close|SQLITE_BUSY|unfinalized/.test(line));
    };
    expect(await stopped(stack.simulator!)).toEqual([]);
    expect(await stopped(stack.api)).toEqual([]);
    expect(existsSync(`${files.terminal}-wal`)).toBe(false);
    expect(existsSync(`${files.api}-wal`)).toBe(false);
  });
});
