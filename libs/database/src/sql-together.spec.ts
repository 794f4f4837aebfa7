import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TestStore } from '@tps/testing';
import { dataSourceOptions } from './data-source-options';
import { SerialWriter } from './serial-writer';
import { sqlOf, type Statement } from './sql';

describe.each(['sqlite', 'postgres'] as const)(
  'Sql.together with a statement that asks for its rows, on %s',
  (kind) => {
    let dir: string;
    let store: TestStore;
    let dataSource: DataSource;
    let writer: SerialWriter;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tps-together-'));
      store = new TestStore(kind, dir);
      dataSource = new DataSource(
        dataSourceOptions({ url: await store.url('together'), entities: [], migrations: [] }),
      );
      await dataSource.initialize();
      await dataSource.query('CREATE TABLE owners (id text PRIMARY KEY, secret text NOT NULL)');
      await dataSource.query('CREATE TABLE items (id text PRIMARY KEY, owner_id text NOT NULL)');
      await dataSource.query('CREATE TABLE counters (id text PRIMARY KEY, n integer NOT NULL)');
      await dataSource.query("INSERT INTO owners VALUES ('o1', 's1')");
      writer = new SerialWriter(dataSource);
    });

    afterAll(async () => {
      await dataSource.destroy();
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Items of o1, inserted with the owner's secret read back; `rows` collects what comes back. */
    function itemsInsert(ids: string[], rows: Array<Record<string, unknown>>): Statement {
      return {
        text: `INSERT INTO items (id, owner_id) SELECT * FROM (VALUES ${ids.map(() => "(?, 'o1')").join(', ')}) AS v`,
        params: ids,
        returning: {
          columns: 'id, (SELECT secret FROM owners WHERE owners.id = items.owner_id) AS secret',
          rows: (returned) => rows.push(...returned),
        },
      };
    }

    const bump = (id: string, from: number): Statement => ({
      text: 'UPDATE counters SET n = n + 1 WHERE id = ? AND n = ?',
      params: [id, from],
    });

    it("hands the statement's rows back beside every statement's count, in one write", async () => {
      await dataSource.query("INSERT INTO counters VALUES ('c1', 0)");
      const rows: Array<Record<string, unknown>> = [];
      const counts = await writer.writeOne((manager) =>
        sqlOf(manager).together([{ ...itemsInsert(['a', 'b'], rows), ifChanged: 1 }, bump('c1', 0)]),
      );
      expect(counts).toEqual([2, 1]);
      expect(rows.map((row) => [row.id, row.secret]).sort()).toEqual([
        ['a', 's1'],
        ['b', 's1'],
      ]);
    });

    it('hands back no rows, and inserts nothing, when the statement it depends on changed nothing', async () => {
      await dataSource.query("INSERT INTO counters VALUES ('c2', 5)");
      const rows: Array<Record<string, unknown>> = [];
      // On SQLite the statements run in order: the write rolls back once the last one found nothing.
      const counts = await writer
        .write(async (manager) => {
          const changed = await sqlOf(manager).together([
            { ...itemsInsert(['c'], rows), ifChanged: 1 },
            bump('c2', 0),
          ]);
          if (changed[1] === 0) throw new Error('moved on');
          return changed;
        })
        .catch((error: Error) => error.message);
      expect(counts).toBe('moved on');
      expect(await dataSource.query("SELECT id FROM items WHERE id = 'c'")).toEqual([]);
      if (kind === 'postgres') expect(rows).toEqual([]);
    });

    it('hands back rows of a statement run alone', async () => {
      const rows: Array<Record<string, unknown>> = [];
      const counts = await writer.write((manager) => sqlOf(manager).together([itemsInsert(['d'], rows)]));
      expect(counts).toEqual([1]);
      expect(rows).toEqual([{ id: 'd', secret: 's1' }]);
    });
  },
);
