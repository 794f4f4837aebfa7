import type { StorePorts } from '../ports/store-ports';
import { sqlitePorts } from '../sqlite/sqlite-ports';
import { PostgresAccountRows } from './postgres-account-rows';
import { PostgresMerchantActivity } from './postgres-merchant-activity';
import { PostgresRetentionRows } from './postgres-retention-rows';
import { PostgresTerminalPurge } from './postgres-terminal-purge';

/**
 * The ports on PostgreSQL: reads and writes share the pool. Where both stores send the same
 * statements (plain SQL with `?` placeholders, which sqlOf numbers for PostgreSQL), this store
 * takes SQLite's adapter as it is, so that each statement has one text to read and to change;
 * an adapter of its own here says what PostgreSQL does otherwise.
 */
export const postgresPorts: StorePorts = {
  probe: sqlitePorts.probe,
  merchantActivity: (writer) => new PostgresMerchantActivity(writer),
  sealedSecrets: sqlitePorts.sealedSecrets,
  retentionRows: (reads, writer) => new PostgresRetentionRows(reads, writer),
  terminalPurge: (writer) => new PostgresTerminalPurge(writer),
  accountRows: () => new PostgresAccountRows(),
  merchantLookup: sqlitePorts.merchantLookup,
  transactionCounts: sqlitePorts.transactionCounts,
  transactionSearch: sqlitePorts.transactionSearch,
  webhookSecrets: sqlitePorts.webhookSecrets,
  deliveryRows: sqlitePorts.deliveryRows,
  terminalQueue: sqlitePorts.terminalQueue,
  printQueue: sqlitePorts.printQueue,
  terminalHistoryRows: sqlitePorts.terminalHistoryRows,
};
