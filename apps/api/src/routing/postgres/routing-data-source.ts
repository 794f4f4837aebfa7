import type { DataSource } from 'typeorm';
import { openDataSource } from '@tps/database';

/**
 * Connections of routing's own, beside the money path's pool: its statements are short, and a
 * burst of routed requests or link changes never waits for a connection a payment holds.
 */
const ROUTING_POOL_SIZE = 4;

/**
 * The routing's data source: the app's options (its URL, direct URL, waits and pooler rules), a
 * pool of its own named `tps-api-routing` (pg_stat_activity), and no migrations: the app's data
 * source ran them before (RoutingModule). Its statements name their tables, so it knows no entities.
 * Closed with closeDataSource.
 */
export function openRoutingDataSource(
  app: DataSource,
  onError: (error: unknown) => void,
): Promise<DataSource> {
  const { options } = app;
  if (options.type !== 'postgres') throw new Error('replicas share a PostgreSQL database');
  return openDataSource({
    ...options,
    entities: [],
    migrations: [],
    migrationsRun: false,
    poolSize: ROUTING_POOL_SIZE,
    applicationName: 'tps-api-routing',
    // An idle connection the server ended: told, not thrown (node-postgres' pool emits it).
    poolErrorHandler: onError,
  });
}
