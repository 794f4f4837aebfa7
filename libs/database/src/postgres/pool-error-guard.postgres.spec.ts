import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { TestStore } from '@tps/testing';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions } from '../data-source-options';
import { openDataSource } from '../open-data-source';

/**
 * A connection's error that arrives while the pool hands it to a query runner (the server ended
 * the session: an outage, a failover) ends no process: it used to, on an error event nobody heard.
 */
describe('a PostgreSQL data source opened by openDataSource', () => {
  let dir: string;
  let store: TestStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-pool-error-guard-'));
    store = new TestStore('postgres', dir);
    dataSource = await openDataSource(
      dataSourceOptions({ url: await store.url('guard'), entities: [], migrations: [], poolSize: 1 }),
    );
  });

  afterAll(async () => {
    await closeDataSource(dataSource);
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hears an error of a connection between the pool handing it out and the query runner listening', async () => {
    const pool = (dataSource.driver as PostgresDriver).master as Pool;
    // Emitted as node-postgres emits what the socket brings: before TypeORM's runner has the connection.
    pool.once('acquire', (client) =>
      queueMicrotask(() =>
        client.emit('error', new Error('terminating connection due to administrator command')),
      ),
    );
    await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });
});
