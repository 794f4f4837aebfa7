import type { EntityManager } from 'typeorm';
import { sqlOf } from './sql';

const GUARD = 'temp.tps_batch_guard';
const OPERATIONS = ['INSERT', 'UPDATE', 'DELETE'] as const;

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Keeps a batch whose writes run at the same time all-or-nothing on SQLite. Their statements are
 * queued on one connection together, so when one fails in a way that makes SQLite roll the whole
 * transaction back (an I/O error, or a full disk where the statement cannot be undone alone), a
 * statement of another write that was already queued would then run outside any transaction and
 * commit on its own: a part of a write kept, though the batch is told it failed.
 *
 * On the writer's connection, temporary triggers refuse every write while the guard is armed:
 * it is armed outside the transaction, just before BEGIN, and opened inside it, so SQLite's own
 * rollback takes it back to armed. A COMMIT keeps it open; after a rollback it is put to rest.
 * The triggers live with the connection (a reopened one gets them again when first needed).
 */
export class BatchGuard {
  private readonly installed = new WeakSet<object>();

  /**
   * Begins the batch's transaction: arms the guard outside it (any write outside the transaction
   * is refused from then on), begins it, and opens the guard as its first statement (its writes
   * pass, until it commits or anything rolls it back). The three go in one trip. When this fails,
   * the transaction may or may not have begun: roll back, then `rest`.
   */
  async begin(manager: EntityManager, begin: string): Promise<void> {
    const connection = this.connectionOf(manager);
    if (!this.installed.has(connection)) {
      await this.install(manager);
      this.installed.add(connection);
    }
    await sqlOf(manager).script(
      `UPDATE ${GUARD} SET state = 'armed'; ${begin}; UPDATE ${GUARD} SET state = 'open'`,
    );
  }

  /** After a rollback, outside any transaction: writes pass again. */
  async rest(manager: EntityManager): Promise<void> {
    if (!this.installed.has(this.connectionOf(manager))) return;
    await sqlOf(manager).run(`UPDATE ${GUARD} SET state = 'rest'`, []);
  }

  private connectionOf(manager: EntityManager): object {
    return (manager.connection.driver as unknown as { databaseConnection: object }).databaseConnection;
  }

  private async install(manager: EntityManager): Promise<void> {
    // In memory: arming must not depend on a temporary file's disk.
    await manager.query('PRAGMA temp_store = MEMORY');
    await manager.query(`CREATE TEMP TABLE IF NOT EXISTS tps_batch_guard (state TEXT NOT NULL)`);
    await manager.query(
      `INSERT INTO ${GUARD} (state) SELECT 'rest' WHERE NOT EXISTS (SELECT 1 FROM ${GUARD})`,
    );
    const tables = await manager.query<Array<{ name: string }>>(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    );
    for (const { name } of tables) {
      for (const operation of OPERATIONS) {
        await manager.query(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${quoted(`tps_batch_guard_${name}_${operation}`)} ` +
            `BEFORE ${operation} ON main.${quoted(name)} ` +
            `WHEN (SELECT state FROM ${GUARD}) = 'armed' ` +
            `BEGIN SELECT RAISE(ABORT, 'a write outside its batch''s transaction'); END`,
        );
      }
    }
  }
}
