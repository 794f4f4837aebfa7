import type { DataSource } from 'typeorm';

const ATTEMPTS = 50;
const PAUSE_MS = 100;

/**
 * Checkpoints SQLite's log and truncates it: its old frames still hold the values a write
 * replaced (a re-sealed secret's old sealing) until then. A reader holding a frame makes the
 * checkpoint busy; it is tried again for a few seconds. False when it stayed busy.
 */
export async function truncateLog(dataSource: DataSource): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const [result] = await dataSource.query<Array<{ busy: number }>>('PRAGMA wal_checkpoint(TRUNCATE)');
    if (result === undefined || Number(result.busy) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return false;
}
