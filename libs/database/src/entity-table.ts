import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { EntityStatements, Equality, InsertEnding } from './entity-statements';
import type { Sql, SqlValue, Statement } from './sql';
import { storeOf } from './stores';

/** A WHERE's value that picks the rows holding any of `values` (see `anyOf`). */
export class AnyOf<T> {
  constructor(readonly values: readonly T[]) {}
}

/** Picks the rows whose column holds any of `values`; none when there are none. */
export function anyOf<T>(values: readonly T[]): AnyOf<T> {
  return new AnyOf(values);
}

/** Equalities, each a value (null: none), or a list of values (anyOf). */
type Where<Entity> = { [Property in keyof Entity]?: Entity[Property] | AnyOf<Entity[Property]> };

export interface FindOptions<Entity> {
  orderBy?: Array<[keyof Entity & string, 'ASC' | 'DESC']>;
  limit?: number;
  /**
   * Inside a write, keeps the rows found from changing until it commits (`FOR UPDATE` on
   * PostgreSQL), so that what the write decides from them still holds when it commits. SQLite
   * needs none: a write there holds the whole database from its BEGIN IMMEDIATE.
   */
  lock?: boolean;
}

/** A WHERE, built (EntityTable's filter). */
interface Filter {
  key: string;
  params: SqlValue[];
  clause: (layout: Layout) => Equality[];
  /** An empty list of values: no row. */
  none: boolean;
}

interface Layout {
  metadata: EntityMetadata;
  table: string;
  column: (property: string) => ColumnMetadata;
  /** The column TypeORM moves on every update, if the entity has one. */
  updatedAt: string | undefined;
}

/**
 * One table's hot statements as fixed SQL: built once from the entity's TypeORM metadata (so the
 * columns, JSON, booleans and transformers stay as TypeORM stores them), cached by shape, and
 * run as statements prepared once per connection. The hot paths use it instead of the query
 * builder, which builds the SQL and hydrates entities again on every call; TypeORM keeps the
 * schema, the migrations and the cold paths.
 */
export class EntityTable<Entity extends ObjectLiteral> {
  private layoutValue: Layout | undefined;
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: EntityTarget<Entity>,
  ) {}

  /** Inserts rows that all give the same properties, in one statement, without reading back. */
  async insert(sql: Sql, rows: Partial<Entity> | Array<Partial<Entity>>): Promise<void> {
    await this.insertRows(sql, Array.isArray(rows) ? rows : [rows]);
  }

  /**
   * Inserts a row unless a unique key already holds one like it; false then. A conflict is not an
   * error: the write it is part of goes on, and shares its commit with the others.
   */
  async insertUnlessTaken(sql: Sql, row: Partial<Entity>): Promise<boolean> {
    return (await this.insertRows(sql, [row], { unlessTaken: true })) === 1;
  }

  /**
   * Inserts rows as `insert` does, and answers `returning` (a RETURNING clause's list, which may
   * read other tables through subqueries) for each, in no particular order.
   */
  async insertReturning<T>(sql: Sql, rows: Array<Partial<Entity>>, returning: string): Promise<T[]> {
    if (rows.length === 0) return [];
    const { text, params } = this.insertStatement(rows, { returning });
    return sql.all<T>(text, params);
  }

  /** `insert`'s statement, to run with others (Sql.together); rows: at least one. */
  inserting(rows: Array<Partial<Entity>>): Statement {
    return this.insertStatement(rows);
  }

  /**
   * `inserting` as an INSERT … SELECT from a list of values, which Sql.together may make
   * depend on another statement (Statement.ifChanged).
   */
  insertingSelect(rows: Array<Partial<Entity>>): Statement {
    const properties = Object.keys(rows[0]).filter((property) => rows[0][property] !== undefined);
    const text = this.text(`insertSelect:${rows.length}:${properties.join(',')}`, (layout) => {
      const columns = properties.map((property) => layout.column(property));
      // A list of values is typed from its values alone on PostgreSQL: each is cast to its column's.
      return this.statements.insertSelect(
        layout.table,
        columns.map((column) => this.name(column)),
        columns.map((column) => this.typedPlaceholder(column)),
        rows.length,
      );
    });
    return {
      text,
      params: rows.flatMap((row) => properties.map((property) => this.persistent(property, row[property]))),
    };
  }

  /** `insertUnlessTaken`'s statement, to run with others (Sql.together): it changed 1 row or none. */
  insertingUnlessTaken(row: Partial<Entity>): Statement {
    return this.insertStatement([row], { unlessTaken: true });
  }

  private insertRows(sql: Sql, rows: Array<Partial<Entity>>, ending?: InsertEnding): Promise<number> {
    if (rows.length === 0) return Promise.resolve(0);
    const { text, params } = this.insertStatement(rows, ending);
    return sql.run(text, params);
  }

  /** One INSERT of rows that all give the same properties, ended as `ending` says. */
  private insertStatement(
    rows: Array<Partial<Entity>>,
    ending?: InsertEnding,
  ): { text: string; params: SqlValue[] } {
    const properties = Object.keys(rows[0]).filter((property) => rows[0][property] !== undefined);
    const text = this.text(
      `insert:${rows.length}:${properties.join(',')}:${JSON.stringify(ending ?? {})}`,
      (layout) =>
        this.statements.insert(
          layout.table,
          properties.map((property) => this.name(layout.column(property))),
          rows.length,
          ending,
        ),
    );
    return {
      text,
      params: rows.flatMap((row) => properties.map((property) => this.persistent(property, row[property]))),
    };
  }

  /** Sets `changes` on the rows `where` picks; resolves how many it changed. */
  update(sql: Sql, where: Where<Entity>, changes: Partial<Entity>): Promise<number> {
    const filter = this.filter(where);
    if (filter.none) return Promise.resolve(0);
    const { text, params } = this.updateOf(filter, changes);
    return sql.run(text, params);
  }

  /** `update`'s statement, to run with others (Sql.together); `where` gives no empty list. */
  updating(where: Where<Entity>, changes: Partial<Entity>): Statement {
    const filter = this.filter(where);
    if (filter.none) throw new Error('updating: an empty list of values picks no row');
    return this.updateOf(filter, changes);
  }

  private updateOf(filter: Filter, changes: Partial<Entity>): Statement {
    const properties = Object.keys(changes).filter((property) => changes[property] !== undefined);
    const text = this.text(`update:${properties.join(',')}:${filter.key}`, (layout) =>
      this.statements.update(
        layout.table,
        properties.map((property) => this.name(layout.column(property))),
        layout.updatedAt,
        filter.clause(layout),
      ),
    );
    return {
      text,
      params: [
        ...properties.map((property) => this.persistent(property, changes[property])),
        ...filter.params,
      ],
    };
  }

  /**
   * Sets on each row the values it gives, on the table's row that `key` names, in one statement
   * (rows that all give the same properties; of two naming the same key, the last wins). The list
   * is padded to a power of two by repeating a row, so that few texts are ever prepared.
   */
  async updateEach(sql: Sql, key: keyof Entity & string, rows: Array<Partial<Entity>>): Promise<void> {
    await this.updateEachWhere(sql, key, rows, {});
  }

  /**
   * updateEach on the rows that also hold every value `guard` gives (none null), and already hold
   * the value each row gives of the properties `matching` names (compared, not set); resolves the
   * keys of the rows it changed (all of them when it has neither).
   */
  async updateEachWhere(
    sql: Sql,
    key: keyof Entity & string,
    rows: Array<Partial<Entity>>,
    guard: Partial<Entity>,
    matching: ReadonlyArray<keyof Entity & string> = [],
  ): Promise<unknown[]> {
    const latest = [...new Map(rows.map((row) => [row[key], row])).values()];
    if (latest.length === 0) return [];
    const guarded = Object.keys(guard).filter((property) => guard[property] !== undefined);
    const properties = Object.keys(latest[0]).filter((property) => latest[0][property] !== undefined);
    if (!properties.includes(key)) throw new Error(`updateEach: every row must give ${key}`);
    let size = 1;
    while (size < latest.length) size *= 2;
    const padded = [...latest, ...Array.from({ length: size - latest.length }, () => latest[0])];
    const text = this.text(
      `updateEach:${key}:${size}:${properties.join(',')}:${guarded.join(',')}:${matching.join(',')}`,
      (layout) => {
        const name = (property: string): string => this.name(layout.column(property));
        return this.statements.updateEach({
          table: layout.table,
          key: name(key),
          columns: properties.map(name),
          // PostgreSQL types a VALUES list from its values alone: a parameter is text there, which a
          // bigint or boolean column refuses. Each is cast to its column's type.
          placeholders: properties.map((property) => this.typedPlaceholder(layout.column(property))),
          rows: padded.length,
          set: properties.filter((property) => property !== key && !matching.includes(property)).map(name),
          touched: layout.updatedAt,
          matching: matching.map(name),
          guarded: guarded.map(name),
        });
      },
    );
    const params = [
      ...padded.flatMap((row) => properties.map((property) => this.persistent(property, row[property]))),
      ...guarded.map((property) => this.persistent(property, guard[property])),
    ];
    if (guarded.length === 0 && matching.length === 0) {
      await sql.run(text, params);
      return latest.map((row) => row[key]);
    }
    const changed = await sql.all<{ changed: unknown }>(text, params);
    return changed.map((row) => row.changed);
  }

  /**
   * Adds `by` (as the column stores it: no transformer) to a number column on the rows `where`
   * picks, in the statement (never read first); resolves how many it changed.
   */
  add(sql: Sql, where: Where<Entity>, property: keyof Entity & string, by: number): Promise<number> {
    const filter = this.filter(where);
    if (filter.none) return Promise.resolve(0);
    const text = this.text(`add:${property}:${filter.key}`, (layout) =>
      this.statements.add(
        layout.table,
        this.name(layout.column(property)),
        layout.updatedAt,
        filter.clause(layout),
      ),
    );
    return sql.run(text, [by, ...filter.params]);
  }

  delete(sql: Sql, where: Where<Entity>): Promise<number> {
    const filter = this.filter(where);
    if (filter.none) return Promise.resolve(0);
    const text = this.text(`delete:${filter.key}`, (layout) =>
      this.statements.delete(layout.table, filter.clause(layout)),
    );
    return sql.run(text, filter.params);
  }

  async find(sql: Sql, where: Where<Entity>, options: FindOptions<Entity> = {}): Promise<Entity[]> {
    const rows = await this.select(sql, undefined, where, options);
    return rows.map((row) => this.hydrate(row));
  }

  /**
   * Only these properties of each row `find` would give, read alone: a column not named is never
   * read, nor its transformer run (a sealed secret stays sealed).
   */
  async findColumns<Property extends keyof Entity & string>(
    sql: Sql,
    properties: readonly Property[],
    where: Where<Entity>,
    options: FindOptions<Entity> = {},
  ): Promise<Array<Pick<Entity, Property>>> {
    const rows = await this.select(sql, properties, where, options);
    const columns = properties.map((property) => this.layout.column(property));
    return rows.map((row) => {
      const picked: Record<string, unknown> = {};
      for (const column of columns) {
        picked[column.propertyName] = this.dataSource.driver.prepareHydratedValue(
          row[column.databaseName],
          column,
        );
      }
      return picked as Pick<Entity, Property>;
    });
  }

  /** How many rows `where` picks. */
  async count(sql: Sql, where: Where<Entity>): Promise<number> {
    const filter = this.filter(where);
    if (filter.none) return 0;
    const text = this.text(`count:${filter.key}`, (layout) =>
      this.statements.count(layout.table, filter.clause(layout)),
    );
    // COUNT(*) is a bigint on PostgreSQL, which node-postgres reads as a string.
    const [row] = await sql.all<{ count: number | string }>(text, filter.params);
    return Number(row?.count ?? 0);
  }

  /** The rows `find` reads: every column, or `properties`' alone. */
  private async select(
    sql: Sql,
    properties: ReadonlyArray<keyof Entity & string> | undefined,
    where: Where<Entity>,
    options: FindOptions<Entity>,
  ): Promise<Array<Record<string, unknown>>> {
    const filter = this.filter(where);
    if (filter.none) return [];
    const order = options.orderBy ?? [];
    const lock = options.lock === true && storeOf(this.dataSource.options).rowLocks;
    const key = `find:${properties?.join(',') ?? '*'}:${filter.key}:${order.map(([p, d]) => `${p} ${d}`).join(',')}:${options.limit ?? ''}:${lock}`;
    const text = this.text(key, (layout) =>
      this.statements.select({
        table: layout.table,
        columns:
          properties === undefined
            ? this.columns(layout)
            : properties.map((property) => this.name(layout.column(property))),
        where: filter.clause(layout),
        orderBy: order.map(([ordered, direction]) => [this.name(layout.column(ordered)), direction] as const),
        limit: options.limit,
        lock,
      }),
    );
    return sql.all<Record<string, unknown>>(text, filter.params);
  }

  async findOne(
    sql: Sql,
    where: Where<Entity>,
    options: Pick<FindOptions<Entity>, 'lock'> = {},
  ): Promise<Entity | null> {
    const [found] = await this.find(sql, where, { ...options, limit: 1 });
    return found ?? null;
  }

  /**
   * The entity's own columns, named: a column that a newer version of the service added (a
   * rolling deploy, contract "Two stores") changes nothing this version reads, nor the result of
   * a statement a PostgreSQL connection has prepared.
   */
  private columns(layout: Layout): string[] {
    return layout.metadata.columns.map((column) => this.name(column));
  }

  /** The table's name, quoted for SQL. */
  get tableName(): string {
    return this.layout.table;
  }

  /** A property's column, quoted for SQL. */
  columnName(property: keyof Entity & string): string {
    return this.name(this.layout.column(property));
  }

  /**
   * The table's columns read from `alias` in a join, each named `<prefix><column>`, so that two
   * tables with a column of the same name can share a row (see `hydrateJoined`).
   */
  joinedColumns(alias: string, prefix: string): string {
    return this.layout.metadata.columns
      .map(
        (column) =>
          `${alias}.${this.name(column)} AS ${this.dataSource.driver.escape(prefix + column.databaseName)}`,
      )
      .join(', ');
  }

  /** The entity a joined row gives under `prefix` (see `joinedColumns`); null for an outer join's miss. */
  hydrateJoined(row: Record<string, unknown>, prefix: string): Entity | null {
    const primary = this.layout.metadata.primaryColumns;
    if (primary.some((column) => row[prefix + column.databaseName] === null)) return null;
    return this.hydrate(row, prefix);
  }

  private get layout(): Layout {
    if (this.layoutValue === undefined) {
      const metadata = this.dataSource.getMetadata(this.target);
      const byProperty = new Map(metadata.columns.map((column) => [column.propertyName, column]));
      this.layoutValue = {
        metadata,
        table: this.dataSource.driver.escape(metadata.tableName),
        column: (property) => {
          const column = byProperty.get(property);
          if (column === undefined) throw new Error(`${metadata.name} has no column ${property}`);
          return column;
        },
        updatedAt: metadata.updateDateColumn === undefined ? undefined : this.name(metadata.updateDateColumn),
      };
    }
    return this.layoutValue;
  }

  private name(column: ColumnMetadata): string {
    return this.dataSource.driver.escape(column.databaseName);
  }

  /** `?`, cast to the column's type where the driver cannot infer it from the statement (PostgreSQL). */
  /** The statements' texts, as the store writes them. */
  private get statements(): EntityStatements {
    return storeOf(this.dataSource.options).entities;
  }

  private typedPlaceholder(column: ColumnMetadata): string {
    return storeOf(this.dataSource.options).placeholderOf(this.dataSource, column);
  }

  private text(key: string, build: (layout: Layout) => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = build(this.layout);
      this.texts.set(key, text);
    }
    return text;
  }

  /**
   * A WHERE of equalities (a null value is IS NULL, a list IN), with its cache key and parameters;
   * `none` when a list is empty, which picks no row. A list is padded to a power of two by
   * repeating a value, so that few texts are ever prepared.
   */
  private filter(where: Where<Entity>): Filter {
    const properties = Object.keys(where).filter((property) => where[property] !== undefined);
    const params: SqlValue[] = [];
    const among = new Map<string, number>();
    let none = false;
    const key = properties
      .map((property) => {
        const value = where[property] as unknown;
        if (value === null) return `${property}=null`;
        if (value instanceof AnyOf) {
          const values = value.values as unknown[];
          if (values.length === 0) none = true;
          let size = 1;
          while (size < values.length) size *= 2;
          const padded =
            values.length === 0
              ? []
              : [...values, ...Array.from({ length: size - values.length }, () => values[0])];
          params.push(...padded.map((one) => this.persistent(property, one)));
          among.set(property, padded.length);
          return `${property} in ${padded.length}`;
        }
        params.push(this.persistent(property, value));
        return property;
      })
      .join(',');
    const clause = (layout: Layout): Equality[] =>
      properties.map((property) => ({
        column: this.name(layout.column(property)),
        isNull: where[property] === null,
        ...(among.has(property) ? { among: among.get(property) } : {}),
      }));
    return { key, params, clause, none };
  }

  private persistent(property: string, value: unknown): SqlValue {
    return this.dataSource.driver.preparePersistentValue(value, this.layout.column(property)) as SqlValue;
  }

  private hydrate(row: Record<string, unknown>, prefix = ''): Entity {
    const entity = this.layout.metadata.create() as Record<string, unknown>;
    for (const column of this.layout.metadata.columns) {
      entity[column.propertyName] = this.dataSource.driver.prepareHydratedValue(
        row[prefix + column.databaseName],
        column,
      );
    }
    return entity as Entity;
  }
}
