import { Database, OPEN_READONLY } from 'sqlite3';

/** Reads rows straight from an app's SQLite file (read-only), to check what it really stored. */
export function sqliteRows<T = Record<string, unknown>>(
  file: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new Database(file, OPEN_READONLY, (openError) => {
      if (openError) {
        reject(openError);
        return;
      }
      db.all(sql, params, (error, rows) => {
        db.close();
        if (error) reject(error);
        else resolve(rows as T[]);
      });
    });
  });
}
