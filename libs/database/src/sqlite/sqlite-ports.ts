import type { StorePorts } from '../ports/store-ports';
import { SqliteDatabaseProbe } from './sqlite-database-probe';
import { SqliteMerchantActivity } from './sqlite-merchant-activity';
import { SqliteRetentionRows } from './sqlite-retention-rows';
import { SqliteSealedSecrets } from './sqlite-sealed-secrets';
import { SqliteTerminalPurge } from './sqlite-terminal-purge';

/** The ports on SQLite: one writer holds the file, reads run on their own connection. */
export const sqlitePorts: StorePorts = {
  probe: (reads) => new SqliteDatabaseProbe(reads),
  merchantActivity: (writer) => new SqliteMerchantActivity(writer),
  sealedSecrets: (reads, writer, table) => new SqliteSealedSecrets(reads, writer, table),
  retentionRows: (reads, writer) => new SqliteRetentionRows(reads, writer),
  terminalPurge: (writer) => new SqliteTerminalPurge(writer),
};
