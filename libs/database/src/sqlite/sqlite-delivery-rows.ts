import type { DataSource, EntityManager } from 'typeorm';
import type { EntityTable } from '../entity-table';
import type {
  DeliveryRows,
  OutboxDelivery,
  StoredDeliveryTarget,
  StoredSigningSecrets,
} from '../ports/delivery-rows';
import { sqlOf } from '../sql';

/**
 * The merchant's webhook secrets, read with each delivery: the secrets in force when its attempt
 * starts sign it (real time, as `webhook-timestamp`). Lower-case names: PostgreSQL folds aliases.
 */
const SECRET_COLUMNS = ['webhook_secret', 'previous_webhook_secret', 'previous_webhook_secret_until'];

interface SecretsRow {
  webhook_secret: string | null;
  previous_webhook_secret: string | null;
  previous_webhook_secret_until: string | null;
}

const storedSecrets = (row: SecretsRow): StoredSigningSecrets => ({
  current: row.webhook_secret ?? null,
  previous: row.previous_webhook_secret ?? null,
  previousUntil: row.previous_webhook_secret_until ?? null,
});

/** A delivery's body as its event stores it, byte for byte (the envelope is simple-json text). */
const EVENT_ENVELOPE = 'SELECT e.envelope AS body FROM transaction_events e WHERE e.event_id = ?';

/** The body of delivery `d`: its payload, or its event's envelope when it left the payload empty. */
const BODY_OF_DELIVERY =
  "COALESCE(NULLIF(d.payload, ''), (SELECT e.envelope FROM transaction_events e WHERE e.event_id = d.event_id))";

/**
 * Statements both stores run alike: PostgreSQL's ports take this adapter as it is
 * (postgres-ports.ts). Only the destinations' slots are PostgreSQL's alone (DeliveryRepository
 * shares none on SQLite), in SQL that SQLite runs too.
 */
export class SqliteDeliveryRows<Delivery extends OutboxDelivery> implements DeliveryRows<Delivery> {
  constructor(
    private readonly reads: DataSource,
    private readonly deliveries: EntityTable<Delivery>,
  ) {}

  async insertSigned(
    within: EntityManager,
    deliveries: Delivery[],
  ): Promise<Map<string, StoredSigningSecrets>> {
    const table = this.deliveries;
    // The secret in the INSERT itself, not in a read of its own: one statement fewer per run.
    const merchantOf = `merchants.merchant_id = ${table.tableName}.${table.columnName('merchantId')}`;
    const column = (name: string) => `(SELECT ${name} FROM merchants WHERE ${merchantOf}) AS ${name}`;
    const rows = await table.insertReturning<SecretsRow & { id: string }>(
      sqlOf(within),
      deliveries,
      `${table.columnName('id')} AS id, ${SECRET_COLUMNS.map(column).join(', ')}`,
    );
    return new Map(rows.map((row) => [row.id, storedSecrets(row)]));
  }

  async stored(within: EntityManager, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await sqlOf(within).all<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return new Set(rows.map((row) => row.id));
  }

  async nextPosition(within: EntityManager, transactionId: string): Promise<number> {
    const sql = sqlOf(within);
    await sql.run('UPDATE transactions SET delivery_count = delivery_count + 1 WHERE id = ?', [
      transactionId,
    ]);
    const [counted] = await sql.all<{ delivery_count: number }>(
      'SELECT delivery_count FROM transactions WHERE id = ?',
      [transactionId],
    );
    return counted.delivery_count;
  }

  async eventBody(within: EntityManager, eventId: string): Promise<string | undefined> {
    const [row] = await sqlOf(within).all<{ body: string }>(EVENT_ENVELOPE, [eventId]);
    return row?.body;
  }

  async target(id: string): Promise<StoredDeliveryTarget | undefined> {
    // Lower-case aliases: PostgreSQL folds unquoted ones, SQLite keeps them as written.
    const [row] = await sqlOf(this.reads.manager).all<
      { url: string; body: string; event_id: string; merchant_id: string } & SecretsRow
    >(
      `SELECT d.url AS url, ${BODY_OF_DELIVERY} AS body, d.event_id AS event_id, d.merchant_id AS merchant_id, ${SECRET_COLUMNS.map((name) => `m.${name} AS ${name}`).join(', ')} ` +
        'FROM webhook_deliveries d LEFT JOIN merchants m ON m.merchant_id = d.merchant_id WHERE d.id = ?',
      [id],
    );
    if (row === undefined) return undefined;
    return {
      url: row.url,
      body: row.body,
      eventId: row.event_id,
      merchantId: row.merchant_id,
      secrets: storedSecrets(row),
    };
  }

  async backlog(): Promise<{ depth: number; oldestCreatedAt: string | null }> {
    const [row] = await sqlOf(this.reads.manager).all<{
      depth: number | string;
      oldest: string | null;
    }>('SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM webhook_deliveries WHERE state = ?', [
      'pending',
    ]);
    return { depth: Number(row?.depth ?? 0), oldestCreatedAt: row?.oldest ?? null };
  }

  async earlierPending(transactionId: string, position: number): Promise<boolean> {
    const rows = await sqlOf(this.reads.manager).all(
      "SELECT 1 AS pending FROM webhook_deliveries WHERE transaction_id = ? AND position < ? AND state = 'pending' LIMIT 1",
      [transactionId, position],
    );
    return rows.length > 0;
  }

  async seedSlots(destination: string, share: number): Promise<void> {
    const slots = Array.from({ length: share }, (_, i) => i + 1);
    await sqlOf(this.reads.manager).run(
      `INSERT INTO webhook_destination_slots (destination, slot) VALUES ${slots.map(() => '(?, ?)').join(', ')} ` +
        'ON CONFLICT DO NOTHING',
      slots.flatMap((slot) => [destination, slot]),
    );
  }
}
