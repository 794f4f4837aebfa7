import type { DataSource } from 'typeorm';
import type { SerialWriter } from '../serial-writer';
import type { DatabaseProbe } from './database-probe';
import type { MerchantActivity } from './merchant-activity';
import type { RetentionRows } from './retention-rows';
import type { SealedSecrets, SealedTable } from './sealed-secrets';
import type { TerminalPurge } from './terminal-purge';

/**
 * Each port's adapter on one store (sqlite/, postgres/): the apps ask for a port (portsOf) and
 * send no SQL of their own. `reads` is the app's data source, `writer` its SerialWriter.
 */
export interface StorePorts {
  probe(reads: DataSource): DatabaseProbe;
  merchantActivity(writer: SerialWriter): MerchantActivity;
  sealedSecrets(reads: DataSource, writer: SerialWriter, table: SealedTable): SealedSecrets;
  retentionRows(reads: DataSource, writer: SerialWriter): RetentionRows;
  terminalPurge(writer: SerialWriter): TerminalPurge;
}
