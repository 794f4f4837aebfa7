import { Client, type ClientConfig } from 'pg';
import type { ListenSession, NotifyConnector } from '../postgres-port';

/** The one channel the service's processes tell each other on. */
export const MESSAGE_CHANNEL = 'tps_messages';

/**
 * How long the sessions wait, as node-postgres takes it: the app's database waits (a connection,
 * an answer from a server that stops answering, a statement and a lock on the server).
 */
export type SessionWaits = Pick<
  ClientConfig,
  'connectionTimeoutMillis' | 'query_timeout' | 'keepAlive' | 'statement_timeout' | 'lock_timeout'
>;

async function open(url: string, applicationName: string, waits: SessionWaits): Promise<Client> {
  const client = new Client({ ...waits, connectionString: url, application_name: applicationName });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Two sessions of their own, outside any pool (a pooler in transaction mode would lose a LISTEN):
 * one that listens, one that notifies without waiting for its commit to be flushed
 * (`synchronous_commit = off`: a lost notification costs a poll, never money).
 */
export function postgresNotifyConnector(
  url: string,
  applicationName: string,
  waits: SessionWaits,
): NotifyConnector {
  let notifier: Promise<Client> | undefined;
  const notifierClient = (): Promise<Client> => {
    notifier ??= open(url, `${applicationName}-notify`, waits).then(async (client) => {
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
      const client = await open(url, `${applicationName}-listen`, waits);
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
      try {
        await client.query(`SELECT ${calls}`, payloads);
      } catch (error) {
        // A session whose statement went unanswered (query_timeout) would hold the next ones behind
        // it: the next notification opens another.
        if (notifier !== undefined && (await notifier.catch(() => undefined)) === client)
          notifier = undefined;
        client.end().catch(() => undefined);
        throw error;
      }
    },
    async close(): Promise<void> {
      const pending = notifier;
      notifier = undefined;
      if (pending !== undefined) await (await pending.catch(() => undefined))?.end();
    },
  };
}
