import type { StorePorts } from '../ports/store-ports';
import { PostgresDatabaseProbe } from './postgres-database-probe';
import { PostgresMerchantActivity } from './postgres-merchant-activity';
import { PostgresSealedSecrets } from './postgres-sealed-secrets';

/** The ports on PostgreSQL: reads and writes share the pool. */
export const postgresPorts: StorePorts = {
  probe: (reads) => new PostgresDatabaseProbe(reads),
  merchantActivity: (writer) => new PostgresMerchantActivity(writer),
  sealedSecrets: (reads, writer, table) => new PostgresSealedSecrets(reads, writer, table),
};
