import type { DataSource } from 'typeorm';
import { SerialWriter } from './serial-writer';
import { storeOf } from './stores';

/**
 * An app's writer: on the data source its store writes on (SQLite: a connection of its own on a
 * file, see sqliteStore.writeSourceOf), closed with the app when opened for it.
 */
export async function openSerialWriter(reads: DataSource): Promise<SerialWriter> {
  const { writes, owned } = await storeOf(reads.options).writeSourceOf(reads);
  return new SerialWriter(writes, owned ? writes : undefined);
}
