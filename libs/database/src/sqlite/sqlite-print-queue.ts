import type { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { EntityTable } from '../entity-table';
import type { PrintQueue, QueuedPrintJob } from '../ports/print-queue';
import { sqlOf, type SqlValue } from '../sql';

/**
 * Statements both stores run alike, named from the entity's metadata: PostgreSQL's ports take
 * this adapter as it is (postgres-ports.ts). What EntityTable does not build: a list of statuses,
 * two columns compared, a count moved by the UPDATE itself.
 */
export class SqlitePrintQueue<Job extends QueuedPrintJob> implements PrintQueue<Job> {
  private readonly jobs: EntityTable<Job>;
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly reads: DataSource,
    private readonly target: EntityTarget<Job>,
  ) {
    this.jobs = new EntityTable(reads, target);
  }

  async oldestIn(serial: string, statuses: readonly string[]): Promise<Job | null> {
    const text = this.text(`oldestIn:${statuses.length}`, (name) => {
      const list = statuses.map(() => '?').join(', ');
      return (
        `${this.select()} WHERE j.${name('serialNumber')} = ? AND j.${name('status')} IN (${list}) ` +
        `ORDER BY j.${name('seq')} LIMIT 1`
      );
    });
    const [job] = await this.all(text, [serial, ...statuses]);
    return job ?? null;
  }

  unreported(serial: string, limit: number): Promise<Job[]> {
    const text = this.text(
      'unreported',
      (name) =>
        `${this.select()} WHERE j.${name('serialNumber')} = ? AND j.${name('version')} > j.${name('reportedVersion')} ` +
        `ORDER BY j.${name('seq')} LIMIT ?`,
    );
    return this.all(text, [serial, limit]);
  }

  async change(within: EntityManager, seq: number, changes: Partial<Job>): Promise<void> {
    const properties = Object.keys(changes).filter((property) => changes[property] !== undefined);
    const text = this.text(`change:${properties.join(',')}`, (name) => {
      const sets = properties.map((property) => `${name(property)} = ?`);
      sets.push(`${name('version')} = ${name('version')} + 1`);
      return `UPDATE ${this.jobs.tableName} SET ${sets.join(', ')} WHERE ${name('seq')} = ?`;
    });
    await sqlOf(within).run(text, [
      ...properties.map((property) => this.persistent(property, changes[property])),
      seq,
    ]);
  }

  async markReported(within: EntityManager, seq: number, version: number): Promise<void> {
    const text = this.text(
      'markReported',
      (name) =>
        `UPDATE ${this.jobs.tableName} SET ${name('reportedVersion')} = ? ` +
        `WHERE ${name('seq')} = ? AND ${name('reportedVersion')} < ?`,
    );
    await sqlOf(within).run(text, [version, seq, version]);
  }

  /** Every column of the job, from `j`, named as the entity's. */
  private select(): string {
    return `SELECT ${this.jobs.joinedColumns('j', '')} FROM ${this.jobs.tableName} j`;
  }

  private async all(text: string, params: SqlValue[]): Promise<Job[]> {
    const rows = await sqlOf(this.reads.manager).all<Record<string, unknown>>(text, params);
    return rows.map((row) => this.jobs.hydrateJoined(row, '') as Job);
  }

  /** The property's value as TypeORM stores it. */
  private persistent(property: string, value: unknown): SqlValue {
    const column = this.reads.getMetadata(this.target).findColumnWithPropertyName(property);
    if (column === undefined) throw new Error(`the print job has no column ${property}`);
    return this.reads.driver.preparePersistentValue(value, column) as SqlValue;
  }

  /**
   * A statement's text, built on first use (the entity's metadata exists only once the data
   * source is initialized) and kept; `name` gives a property's column, quoted.
   */
  private text(key: string, build: (name: (property: string) => string) => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = build((property) => this.jobs.columnName(property));
      this.texts.set(key, text);
    }
    return text;
  }
}
