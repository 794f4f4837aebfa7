import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { TEST_POSTGRES_URL, type Stack } from '@tps/testing';

/** Runs `sql` on the server as its superuser, outside the apps' databases. */
async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * One app's PostgreSQL database gone: its connections are terminated by the server and no new
 * one is accepted. Other suites share the server, so the outage is that database's alone, not a
 * stop of the whole server.
 */
export async function cutOff(database: string): Promise<void> {
  await onServer(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
  await onServer(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
}

export async function restore(database: string): Promise<void> {
  await onServer(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
}

/**
 * One app's PostgreSQL database read-only, as a server that failed over to a standby: reads
 * answer, every write fails (25006). New sessions take the setting, so the open ones are ended.
 */
export async function readOnly(database: string): Promise<void> {
  await onServer(`ALTER DATABASE ${database} SET default_transaction_read_only = on`);
  await onServer(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
}

export async function writable(database: string): Promise<void> {
  await onServer(`ALTER DATABASE ${database} RESET default_transaction_read_only`);
  await onServer(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
}

/**
 * The API's storage refuses writes, as a fault test needs it: its SQLite files made immutable,
 * or its PostgreSQL database cut off (`cut-off`: nothing answers) or read-only (`read-only`:
 * reads still answer, so a signed route still finds its merchant). `restore` undoes it.
 */
export async function unwritableApiStorage(
  stack: Stack,
  onPostgres: 'cut-off' | 'read-only',
): Promise<{ restore: () => Promise<void> }> {
  if (stack.store.kind === 'sqlite') {
    const files = [stack.apiDatabase, `${stack.apiDatabase}-wal`];
    execFileSync('chattr', ['+i', ...files]);
    return { restore: async () => void execFileSync('chattr', ['-i', ...files]) };
  }
  const database = new URL(await stack.store.url('api')).pathname.slice(1);
  if (onPostgres === 'cut-off') {
    await cutOff(database);
    return { restore: () => restore(database) };
  }
  await readOnly(database);
  return { restore: () => writable(database) };
}
