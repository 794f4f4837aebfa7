import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { QueuedEvent, TerminalQueue, TerminalQueueTables } from '../ports/terminal-queue';
import { sqlOf, type SqlValue } from '../sql';

/** Values in one acknowledgement UPDATE, well under SQLite's limit of bound parameters. */
const ACK_CHUNK = 512;

/** An event row as the queue reads it, joined to its transaction's order. */
interface QueueRow {
  seq: number;
  envelope: unknown;
  outcome: unknown;
  /** The transaction's order: it goes up with the acknowledgement only. */
  order: unknown;
}

interface TableNames {
  /** The table's name, escaped. */
  table: string;
  /** A property's column name, escaped. */
  name: (property: string) => string;
  column: (property: string) => ColumnMetadata;
}

function namesOf(dataSource: DataSource, target: EntityTarget<ObjectLiteral>): TableNames {
  const metadata = dataSource.getMetadata(target);
  const column = (property: string): ColumnMetadata => {
    const found = metadata.findColumnWithPropertyName(property);
    if (found === undefined) throw new Error(`${metadata.name} has no column ${property}`);
    return found;
  };
  return {
    table: dataSource.driver.escape(metadata.tableName),
    name: (property) => dataSource.driver.escape(column(property).databaseName),
    column,
  };
}

/**
 * The fixed SQL of the queue's reads and acknowledgements, named from the entities' metadata and
 * built once: joins and IN lists, which EntityTable does not build.
 */
class QueueSql {
  /** The events of one terminal not yet acknowledged, oldest first: `serial, false, limit`. */
  readonly pending: string;
  /** Every event of one transaction, in order: `key`. */
  readonly linkEvents: string;
  private readonly acknowledgeTexts = new Map<string, string>();
  private readonly events: TableNames;
  private readonly envelope: ColumnMetadata;
  private readonly outcome: ColumnMetadata;
  private readonly order: ColumnMetadata;
  private readonly acked: ColumnMetadata;

  constructor(
    private readonly dataSource: DataSource,
    tables: TerminalQueueTables,
  ) {
    const events = namesOf(dataSource, tables.events);
    const transactions = namesOf(dataSource, tables.transactions);
    this.events = events;
    this.envelope = events.column('envelope');
    this.outcome = events.column('outcome');
    this.order = transactions.column('order');
    this.acked = events.column('acked');
    const e = (property: string): string => `e.${events.name(property)}`;
    // One statement instead of the events then their acknowledgements' orders: the order goes up
    // with the acknowledgement only, and is read beside every row (a primary key lookup) rather
    // than for acknowledgements alone. Measured on the queue's read, 2 and 100 rows: the join
    // costs 40% less CPU than two statements; reading the order for acknowledgements only (by a
    // subquery on the first seq, or json_extract on the envelope) saves nothing more, or costs.
    const select =
      `SELECT ${e('seq')} AS seq, ${e('envelope')} AS envelope, ${e('outcome')} AS outcome, ` +
      `t.${transactions.name('order')} AS ${dataSource.driver.escape('order')} ` +
      `FROM ${events.table} e LEFT JOIN ${transactions.table} t ` +
      `ON t.${transactions.name('key')} = ${e('transactionKey')}`;
    this.pending = `${select} WHERE ${e('serialNumber')} = ? AND ${e('acked')} = ? ORDER BY ${e('seq')} LIMIT ?`;
    this.linkEvents = `${select} WHERE ${e('transactionKey')} = ? ORDER BY ${e('seq')}`;
  }

  /** The persistent form of `acked`, as TypeORM stores it. */
  ackedValue(acked: boolean): SqlValue {
    return this.dataSource.driver.preparePersistentValue(acked, this.acked) as SqlValue;
  }

  /**
   * Sets acked on the rows whose `property` is one of `values`, in one statement. The list is
   * padded to a power of two (repeating a value changes nothing), so few texts are ever prepared.
   */
  acknowledge(
    property: 'seq' | 'eventId',
    values: readonly SqlValue[],
  ): { text: string; params: SqlValue[] } {
    let size = 1;
    while (size < values.length) size *= 2;
    const key = `${property}:${size}`;
    let text = this.acknowledgeTexts.get(key);
    if (text === undefined) {
      const list = Array.from({ length: size }, () => '?').join(', ');
      text = `UPDATE ${this.events.table} SET ${this.events.name('acked')} = ? WHERE ${this.events.name(property)} IN (${list})`;
      this.acknowledgeTexts.set(key, text);
    }
    const padded = [...values, ...Array.from({ length: size - values.length }, () => values[0])];
    return { text, params: [this.ackedValue(true), ...padded] };
  }

  /** The row's values as the entities hold them. */
  queued(row: QueueRow): QueuedEvent {
    const driver = this.dataSource.driver;
    return {
      seq: row.seq,
      envelope: driver.prepareHydratedValue(row.envelope, this.envelope) as unknown,
      outcome: driver.prepareHydratedValue(row.outcome, this.outcome) as unknown,
      order: row.order === null ? null : (driver.prepareHydratedValue(row.order, this.order) as unknown),
    };
  }
}

/**
 * Statements both stores run alike, named from the entities' metadata: PostgreSQL's ports take
 * this adapter as it is (postgres-ports.ts). Fixed SQL, prepared once.
 */
export class SqliteTerminalQueue implements TerminalQueue {
  private queueSqlValue: QueueSql | undefined;

  constructor(
    private readonly reads: DataSource,
    private readonly tables: TerminalQueueTables,
  ) {}

  async pending(serial: string, limit: number): Promise<QueuedEvent[]> {
    const queue = this.queueSql;
    const rows = await sqlOf(this.reads.manager).all<QueueRow>(queue.pending, [
      serial,
      queue.ackedValue(false),
      limit,
    ]);
    return rows.map((row) => queue.queued(row));
  }

  async ofTransaction(key: string): Promise<QueuedEvent[]> {
    const queue = this.queueSql;
    const rows = await sqlOf(this.reads.manager).all<QueueRow>(queue.linkEvents, [key]);
    return rows.map((row) => queue.queued(row));
  }

  async acknowledge(
    within: EntityManager,
    property: 'seq' | 'eventId',
    values: readonly (string | number)[],
  ): Promise<void> {
    const sql = sqlOf(within);
    for (let from = 0; from < values.length; from += ACK_CHUNK) {
      const { text, params } = this.queueSql.acknowledge(property, values.slice(from, from + ACK_CHUNK));
      await sql.run(text, params);
    }
  }

  /** Built on first use: the data source's metadata exists only once it is initialized. */
  private get queueSql(): QueueSql {
    this.queueSqlValue ??= new QueueSql(this.reads, this.tables);
    return this.queueSqlValue;
  }
}
