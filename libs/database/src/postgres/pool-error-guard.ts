import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Gives each connection of a PostgreSQL data source's pool an error listener of its own, once, as
 * the pool hands it out. node-postgres emits an error that reaches an idle connection (the server
 * ended the session: 57P01, an outage, a failover) as an `error` event, which ends the process
 * where nobody listens. The pool listens while the connection is idle and stops as it hands it out;
 * TypeORM's query runner listens only once its promise of the connection has settled, some
 * microtasks later, and an error read from the socket between the two went unheard. The error is
 * not lost: the query runner's next statement on that connection fails (a storage failure), and
 * the pool drops the connection when it is given back.
 */
export function guardPoolErrors(dataSource: DataSource): void {
  const pool = (dataSource.driver as PostgresDriver).master as Pool | undefined;
  const guarded = new WeakSet<PoolClient>();
  pool?.on('acquire', (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', () => undefined);
  });
}
