import type { DataSource } from 'typeorm';
import { storeOf } from '../stores';
import type { StorePorts } from './store-ports';

export * from './database-probe';
export * from './merchant-activity';
export * from './sealed-secrets';
export * from './retention-rows';
export * from './terminal-purge';
export * from './account-rows';
export * from './merchant-lookup';
export * from './transaction-counts';
export * from './transaction-search';
export * from './webhook-secrets';
export * from './delivery-rows';
export * from './terminal-queue';
export * from './print-queue';
export * from './terminal-history-rows';
export type { StorePorts } from './store-ports';

/** The adapters of the store that `dataSource` opens. */
export function portsOf(dataSource: DataSource): StorePorts {
  return storeOf(dataSource.options).ports;
}
