import { DataSource } from 'typeorm';
import { SerialWriter } from './serial-writer';

/**
 * An app's write queue. On a SQLite file it writes on a connection of its own, and the data
 * source's connection is left to the reads. In WAL a read on the other connection sees only what
 * is committed, never a batch under way: a read outside the queue cannot show a write whose
 * COMMIT then fails (a full disk), so nothing is ever told that was not stored. Reads still see
 * their writes: a write resolves only once its COMMIT returned, and a read that starts after
 * that sees it. An in-memory SQLite (one connection is the whole database) and the pooled
 * drivers (a transaction has a connection of its own there already) write on the data source.
 */
export async function openSerialWriter(reads: DataSource): Promise<SerialWriter> {
  const { options } = reads;
  if (options.type !== 'sqlite' || options.database === ':memory:') return new SerialWriter(reads);
  // The reads' data source ran the migrations; this one opens on the migrated file.
  const writes = new DataSource({ ...options, migrationsRun: false });
  await writes.initialize();
  return new SerialWriter(writes, writes);
}
