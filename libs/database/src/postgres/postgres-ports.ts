import type { StorePorts } from '../ports/store-ports';
import { PostgresDatabaseProbe } from './postgres-database-probe';
import { PostgresMerchantActivity } from './postgres-merchant-activity';
import { PostgresRetentionRows } from './postgres-retention-rows';
import { PostgresSealedSecrets } from './postgres-sealed-secrets';
import { PostgresTerminalPurge } from './postgres-terminal-purge';

/** The ports on PostgreSQL: reads and writes share the pool. */
export const postgresPorts: StorePorts = {
  probe: (reads) => new PostgresDatabaseProbe(reads),
  merchantActivity: (writer) => new PostgresMerchantActivity(writer),
  sealedSecrets: (reads, writer, table) => new PostgresSealedSecrets(reads, writer, table),
  retentionRows: (reads, writer) => new PostgresRetentionRows(reads, writer),
  terminalPurge: (writer) => new PostgresTerminalPurge(writer),
};
