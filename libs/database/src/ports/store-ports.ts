import type { DataSource, EntityTarget } from 'typeorm';
import type { EntityTable } from '../entity-table';
import type { SerialWriter } from '../serial-writer';
import type { AccountRows } from './account-rows';
import type { DatabaseProbe } from './database-probe';
import type { DeliveryRows, OutboxDelivery } from './delivery-rows';
import type { MerchantActivity } from './merchant-activity';
import type { LookedUpMerchant, LookedUpTerminal, MerchantLookup } from './merchant-lookup';
import type { PrintQueue, QueuedPrintJob } from './print-queue';
import type { RetentionRows } from './retention-rows';
import type { SealedSecrets, SealedTable } from './sealed-secrets';
import type {
  HistoryEvent,
  HistoryTransaction,
  TerminalHistoryRows,
  TerminalHistoryTables,
} from './terminal-history-rows';
import type { TerminalPurge } from './terminal-purge';
import type { TerminalQueue, TerminalQueueTables } from './terminal-queue';
import type { TransactionCounts } from './transaction-counts';
import type { SearchedTransaction, TransactionSearch } from './transaction-search';
import type { WebhookSecrets } from './webhook-secrets';

/**
 * Each port's adapter on one store (sqlite/, postgres/): the apps ask for a port (portsOf) and
 * send no SQL of their own. `reads` is the app's data source, `writer` its SerialWriter; an
 * EntityTable names the app's entity whose rows the port reads and writes.
 */
export interface StorePorts {
  probe(reads: DataSource): DatabaseProbe;
  merchantActivity(writer: SerialWriter): MerchantActivity;
  sealedSecrets(reads: DataSource, writer: SerialWriter, table: SealedTable): SealedSecrets;
  retentionRows(reads: DataSource, writer: SerialWriter): RetentionRows;
  terminalPurge(writer: SerialWriter): TerminalPurge;
  accountRows(): AccountRows;
  merchantLookup<Merchant extends LookedUpMerchant, Terminal extends LookedUpTerminal>(
    reads: DataSource,
    merchants: EntityTable<Merchant>,
    terminals: EntityTable<Terminal>,
  ): MerchantLookup<Merchant, Terminal>;
  transactionCounts(reads: DataSource): TransactionCounts;
  transactionSearch<Transaction extends SearchedTransaction>(
    reads: DataSource,
    transactions: EntityTable<Transaction>,
  ): TransactionSearch<Transaction>;
  webhookSecrets(writer: SerialWriter): WebhookSecrets;
  deliveryRows<Delivery extends OutboxDelivery>(
    reads: DataSource,
    deliveries: EntityTable<Delivery>,
  ): DeliveryRows<Delivery>;
  terminalQueue(reads: DataSource, tables: TerminalQueueTables): TerminalQueue;
  printQueue<Job extends QueuedPrintJob>(reads: DataSource, jobs: EntityTarget<Job>): PrintQueue<Job>;
  terminalHistoryRows<Transaction extends HistoryTransaction, Event extends HistoryEvent>(
    reads: DataSource,
    tables: TerminalHistoryTables<Transaction, Event>,
  ): TerminalHistoryRows<Transaction, Event>;
}
