import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { clientWaits, databaseWaits, isServerUrl } from '@tps/database';
import { InProcessMessagePort, PostgresMessagePort, postgresNotifyConnector } from '@tps/messaging';
import { ApiConfig } from '../config/api-config';
import {
  API_MESSAGES,
  CROSSING_TOPICS,
  ON_DEMAND_TOPICS,
  type ApiMessages,
  type ApiTopics,
} from './api-messages';

function onError(logger: Logger): (topic: string, error: unknown) => void {
  return (topic, error) => logger.error(`messages on ${topic}: ${String(error)}`);
}

/** Whether the service's store is a database server that other replicas may share. */
export function sharedStore(config: ApiConfig): boolean {
  return isServerUrl(config.DATABASE_URL);
}

async function messagePort(config: ApiConfig): Promise<ApiMessages> {
  const logger = new Logger('Messages');
  if (!sharedStore(config)) return new InProcessMessagePort<ApiTopics>(onError(logger));
  const port = new PostgresMessagePort<ApiTopics>(
    // Sessions of their own on the direct URL: its waits, as the data source's (every wait bounded).
    postgresNotifyConnector(
      config.DATABASE_DIRECT_URL ?? config.DATABASE_URL,
      'tps-api',
      clientWaits(databaseWaits(config), false),
    ),
    {
      crossing: CROSSING_TOPICS,
      onDemand: ON_DEMAND_TOPICS,
      onError: onError(logger),
    },
  );
  await port.start();
  return port;
}

/**
 * The message port between the write paths and whoever watches (the console's live stream, the
 * payment outcome log, the webhook dispatcher, the metrics, the routing of requests between
 * replicas): within this process on SQLite, across the replicas that share a PostgreSQL database.
 */
@Global()
@Module({
  providers: [{ provide: API_MESSAGES, useFactory: messagePort, inject: [ApiConfig] }],
  exports: [API_MESSAGES],
})
export class MessagesModule implements OnApplicationShutdown {
  constructor(@Inject(API_MESSAGES) private readonly messages: ApiMessages) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.messages instanceof PostgresMessagePort) await this.messages.stop();
  }
}
