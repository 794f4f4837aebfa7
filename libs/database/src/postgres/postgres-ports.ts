import type { StorePorts } from '../ports/store-ports';
import { PostgresDatabaseProbe } from './postgres-database-probe';
import { PostgresMerchantActivity } from './postgres-merchant-activity';
import { PostgresRetentionRows } from './postgres-retention-rows';
import { PostgresSealedSecrets } from './postgres-sealed-secrets';

/** The ports on PostgreSQL: reads and writes share the pool. */
export const postgresPorts: StorePorts = {
  probe: (reads) => new PostgresDatabaseProbe(reads),
  merchantActivity: (writer) => new PostgresMerchantActivity(writer),
  sealedSecrets: (reads, writer, table) => new PostgresSealedSecrets(reads, writer, table),
  retentionRows: (reads, writer) => new PostgresRetentionRows(reads, writer),
};
