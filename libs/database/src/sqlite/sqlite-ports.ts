import type { StorePorts } from '../ports/store-ports';
import { SqliteAccountRows } from './sqlite-account-rows';
import { SqliteDatabaseProbe } from './sqlite-database-probe';
import { SqliteDeliveryRows } from './sqlite-delivery-rows';
import { SqliteMerchantActivity } from './sqlite-merchant-activity';
import { SqliteMerchantLookup } from './sqlite-merchant-lookup';
import { SqlitePrintQueue } from './sqlite-print-queue';
import { SqliteRetentionRows } from './sqlite-retention-rows';
import { SqliteSealedSecrets } from './sqlite-sealed-secrets';
import { SqliteTerminalHistoryRows } from './sqlite-terminal-history-rows';
import { SqliteTerminalPurge } from './sqlite-terminal-purge';
import { SqliteTerminalQueue } from './sqlite-terminal-queue';
import { SqliteTransactionCounts } from './sqlite-transaction-counts';
import { SqliteTransactionSearch } from './sqlite-transaction-search';
import { SqliteWebhookSecrets } from './sqlite-webhook-secrets';

/** The ports on SQLite: one writer holds the file, reads run on their own connection. */
export const sqlitePorts: StorePorts = {
  probe: (reads) => new SqliteDatabaseProbe(reads),
  merchantActivity: (writer) => new SqliteMerchantActivity(writer),
  sealedSecrets: (reads, writer, table) => new SqliteSealedSecrets(reads, writer, table),
  retentionRows: (reads, writer) => new SqliteRetentionRows(reads, writer),
  terminalPurge: (writer) => new SqliteTerminalPurge(writer),
  accountRows: () => new SqliteAccountRows(),
  merchantLookup: (reads, merchants, terminals) => new SqliteMerchantLookup(reads, merchants, terminals),
  transactionCounts: (reads) => new SqliteTransactionCounts(reads),
  transactionSearch: (reads, transactions) => new SqliteTransactionSearch(reads, transactions),
  webhookSecrets: (writer) => new SqliteWebhookSecrets(writer),
  deliveryRows: (reads, deliveries) => new SqliteDeliveryRows(reads, deliveries),
  terminalQueue: (reads, tables) => new SqliteTerminalQueue(reads, tables),
  printQueue: (reads, jobs) => new SqlitePrintQueue(reads, jobs),
  terminalHistoryRows: (reads, tables) => new SqliteTerminalHistoryRows(reads, tables),
};
