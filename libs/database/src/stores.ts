import type { DataSourceOptions } from 'typeorm';
import { otherServerStore, postgresStore } from './postgres/postgres-store';
import type { StoreAdapter } from './store-adapter';
import { sqliteStore } from './sqlite/sqlite-store';

/** In order: the first that accepts the options is their store. */
const STORES: readonly StoreAdapter[] = [sqliteStore, postgresStore, otherServerStore];

/** The adapter of the store a data source's options open. */
export function storeOf(options: Pick<DataSourceOptions, 'type'>): StoreAdapter {
  const store = STORES.find((candidate) => candidate.accepts(options));
  if (store === undefined) throw new Error(`no store adapter for ${options.type}`);
  return store;
}
