import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { TransactionEvent } from '@tps/contracts';
import { API_MIGRATIONS, PreparedDatabase, SerialWriter, dataSourceOptions } from '@tps/database';
import type { RecordedAttempt } from '@tps/delivery';
import { API_ENTITIES } from '../api-entities';
import { LiveFeed } from '../live/live-feed';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { DeliveryEntity } from './delivery.entity';
import { DeliveryRepository } from './delivery.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('@nestjs/typeorm', () => ({ InjectRepository: () => () => undefined }));

const URL = 'http://127.0.0.1:9/hook';

function eventOf(status: TransactionEvent['status'], clientTransactionId: string): TransactionEvent {
  return {
    event_id: randomUUID(),
    status,
    merchant_id: 'demo-merchant',
    client_transaction_id: clientTransactionId,
  } as TransactionEvent;
}

function delivered(at: number): RecordedAttempt {
  return {
    outcome: { statusCode: 200 },
    latencyMs: 3,
    answerExcerpt: 'ok',
    n: 1,
    at,
    firstAttemptAt: at,
    step: { state: 'delivered' },
  };
}

describe('DeliveryRepository on a real SQLite file', () => {
  let dir: string;
  let dataSource: DataSource;
  let writer: SerialWriter;
  let outbox: DeliveryRepository;
  let statements: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-deliveries-'));
    dataSource = new DataSource(
      dataSourceOptions({
        url: `sqlite:${join(dir, 'api.sqlite')}`,
        entities: API_ENTITIES,
        migrations: API_MIGRATIONS,
      }),
    );
    await dataSource.initialize();
    writer = new SerialWriter(dataSource);
    outbox = new DeliveryRepository(
      writer,
      dataSource.getRepository(DeliveryEntity),
      dataSource.getRepository(DeliveryAttemptEntity),
      new LiveFeed(),
    );
    statements = [];
    const connection = (dataSource.driver as unknown as { databaseConnection: PreparedDatabase })
      .databaseConnection;
    connection.on('trace', (sql: string) => statements.push(sql.split(' ')[0]));
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The statements `work` makes SQLite start, each by its first word. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    await new Promise((resolve) => setTimeout(resolve, 20));
    statements = [];
    await work();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return statements;
  }

  it("stages a run's deliveries in one INSERT, in order, and a replay within the run once", async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = [
      eventOf('CARD_PRESENTED', 'c1'),
      eventOf('APPROVAL_REQUESTED', 'c1'),
      eventOf('APPROVAL', 'c1'),
    ];
    let staged: unknown[] = [];
    const run = await statementsOf(() =>
      writer.write(async (manager) => {
        const staging = outbox.stagingIn(manager);
        staged = [
          ...(await Promise.all(
            events.map((event) => staging.stage(transaction, URL, event, 0, false, null)),
          )),
          await staging.stage(transaction, URL, events[2], 0, true, null),
        ];
        await staging.insert();
      }),
    );
    expect(run).toEqual(['BEGIN', 'INSERT', 'COMMIT']);
    expect(staged.at(-1)).toBeNull();
    expect(transaction.deliveryCount).toBe(3);
    const rows = await dataSource.getRepository(DeliveryEntity).find({ order: { position: 'ASC' } });
    expect(rows.map((row) => [row.position, row.eventId, row.state])).toEqual(
      events.map((event, i) => [i + 1, event.event_id, 'pending']),
    );
  });

  it('records a batch of attempts in one INSERT and one UPDATE, each delivery with its own values', async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = [
      eventOf('CARD_PRESENTED', 'c2'),
      eventOf('APPROVAL_REQUESTED', 'c2'),
      eventOf('APPROVAL', 'c2'),
    ];
    const pending = await writer.write(async (manager) => {
      const staging = outbox.stagingIn(manager);
      const made = await Promise.all(
        events.map((event) => staging.stage(transaction, URL, event, 0, false, null)),
      );
      await staging.insert();
      return made.flatMap((delivery) => (delivery === null ? [] : [delivery]));
    });
    // Held behind a write under way, the three records share the next one.
    let release!: () => void;
    const busy = writer.write(() => new Promise<void>((resolve) => (release = resolve)));
    const recorded = statementsOf(async () => {
      const records = pending.map((delivery, i) => outbox.record(delivery.id, delivered(1_000 * (i + 1))));
      release();
      await busy;
      await Promise.all(records);
    });
    // The UPDATE starts with its list of values (WITH v AS (VALUES …) UPDATE …).
    expect(await recorded).toEqual(['COMMIT', 'BEGIN', 'INSERT', 'WITH', 'COMMIT']);
    const rows = await dataSource.getRepository(DeliveryEntity).find({ order: { position: 'ASC' } });
    expect(rows.map((row) => [row.state, row.attemptCount, row.firstAttemptAt, row.nextAttemptAt])).toEqual([
      ['delivered', 1, new Date(1_000).toISOString(), null],
      ['delivered', 1, new Date(2_000).toISOString(), null],
      ['delivered', 1, new Date(3_000).toISOString(), null],
    ]);
    expect(await dataSource.getRepository(DeliveryAttemptEntity).count()).toBe(3);
  });
});
