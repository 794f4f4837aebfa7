import type { Work } from '../store-writer';

/**
 * The write that tells whether the storage takes writes again (SerialWriter.health), the same
 * on every store: it rewrites a row of TypeORM's own table, so it needs no table of ours, and
 * really writes a page.
 */
export const writeProbe: Work<void> = async (manager) => {
  await manager.query('UPDATE migrations SET name = name WHERE id = (SELECT MAX(id) FROM migrations)');
};
