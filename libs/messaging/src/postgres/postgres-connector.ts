import { Client } from 'pg';
import type { ListenSession, NotifyConnector } from '../postgres-port';

/** The one channel the service's processes tell each other on. */
export const MESSAGE_CHANNEL = 'tps_messages';

const CONNECT_TIMEOUT_MS = 3000;

async function open(url: string, applicationName: string): Promise<Client> {
  const client = new Client({
    connectionString: url,
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Two sessions of their own, outside any pool (a pooler in transaction mode would lose a LISTEN):
 * one that listens, one that notifies without waiting for its commit to be flushed
 * (`synchronous_commit = off`: a lost notification costs a poll, never money).
 */
export function postgresNotifyConnector(url: string, applicationName: string): NotifyConnector {
  let notifier: Promise<Client> | undefined;
  const notifierClient = (): Promise<Client> => {
    notifier ??= open(url, `${applicationName}-notify`).then(async (client) => {
      client.once('error', () => (notifier = undefined));
      client.once('end', () => (notifier = undefined));
      await client.query('SET synchronous_commit = off');
      return client;
    });
    notifier.catch(() => (notifier = undefined));
    return notifier;
  };
  return {
    async listen(onPayload, onLost): Promise<ListenSession> {
      const client = await open(url, `${applicationName}-listen`);
      let closing = false;
      const lose = (error: unknown): void => {
        if (closing) return;
        closing = true;
        client.end().catch(() => undefined);
        onLost(error);
      };
      client.on('notification', (message) => {
        if (message.channel === MESSAGE_CHANNEL && message.payload !== undefined) onPayload(message.payload);
      });
      client.on('error', lose);
      client.on('end', () => lose(new Error('the listening session ended')));
      try {
        await client.query(`LISTEN ${MESSAGE_CHANNEL}`);
      } catch (error) {
        closing = true;
        await client.end().catch(() => undefined);
        throw error;
      }
      return {
        close: async () => {
          closing = true;
          await client.end();
        },
      };
    },
    async notify(payloads): Promise<void> {
      if (payloads.length === 0) return;
      const client = await notifierClient();
      const calls = payloads.map((_, n) => `pg_notify('${MESSAGE_CHANNEL}', $${n + 1})`).join(', ');
      await client.query(`SELECT ${calls}`, payloads);
    },
    async close(): Promise<void> {
      const pending = notifier;
      notifier = undefined;
      if (pending !== undefined) await (await pending.catch(() => undefined))?.end();
    },
  };
}
