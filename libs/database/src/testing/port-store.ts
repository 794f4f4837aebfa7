import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { TestStore, type StoreKind } from '@tps/testing';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions } from '../data-source-options';
import { openDataSource } from '../open-data-source';
import { openSerialWriter } from '../open-serial-writer';
import type { SerialWriter } from '../serial-writer';

/** A store of its own with the one table a port's spec needs: its reads, a writer, and its close. */
export interface PortStore {
  store: TestStore;
  reads: DataSource;
  writer: SerialWriter;
  close(): Promise<void>;
}

/**
 * Opens a database named `name` on `kind` (a SQLite file, or a PostgreSQL database) and runs
 * `schema` there; `entities`: those whose tables the port reads through an EntityTable.
 */
export async function openPortStore(
  kind: StoreKind,
  name: string,
  schema: string,
  entities: NonNullable<DataSourceOptions['entities']> = [],
): Promise<PortStore> {
  const dir = mkdtempSync(join(tmpdir(), `tps-${name}-`));
  const store = new TestStore(kind, dir);
  const reads = await openDataSource(
    dataSourceOptions({ url: await store.url(name), entities, migrations: [] }),
  );
  await reads.query(schema);
  const writer = await openSerialWriter(reads);
  return {
    store,
    reads,
    writer,
    close: async () => {
      await writer.onApplicationShutdown();
      await closeDataSource(reads);
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
