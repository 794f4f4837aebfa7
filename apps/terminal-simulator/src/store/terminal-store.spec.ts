import type { DataSource } from 'typeorm';
import { ContractError, type LifecycleStatus } from '@tps/domain';
import { SerialWriter } from '@tps/database';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { buildEvent } from '../runtime/event-factory';
import { TransactionAlreadyStoredError } from '../runtime/runtime-store';
import { TerminalRuntime } from '../runtime/terminal-runtime';
import { abortOrder, order, profile } from '../runtime/testing/runtime-harness';
import { REAL_TIMERS } from '../runtime/timers';
import { TerminalEventEntity } from './terminal-event.entity';
import { openTerminalDatabase, type TerminalDatabase } from './testing/terminal-database';
import { TerminalStore, transactionKey } from './terminal-store';
import { TerminalTransactionEntity } from './terminal-transaction.entity';

// Nest ships as ES modules, which Jest does not load; the store's decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const SERIAL = 'SIMUNIT001';

/** An event of `charge`, as the runtime builds it; the acknowledgement carries the order. */
function linkOf(
  charge: OperationOrder,
  status: LifecycleStatus,
  previous: LifecycleStatus | null = null,
): LinkEvent {
  const link: LinkEvent = {
    event: buildEvent(profile('instant'), charge, previous, status, {}, new Date('2026-01-02T03:04:05.678Z')),
  };
  if (status === 'TERMINAL_ACKNOWLEDGED') link.order = charge;
  if (status === 'APPROVAL' || status === 'TERMINAL_REJECTED') {
    link.outcome = { kind: 'terminal', error: { type: 'TERMINAL', code: 'TER-101', message: 'late' } };
  }
  return link;
}

/** A whole transaction's events (ACK, then `rest`), as the queue sends them. */
async function recordAll(
  store: TerminalStore,
  charge: OperationOrder,
  ...rest: Array<LinkEvent['event']['status']>
) {
  const links = [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')];
  for (const status of rest) links.push(linkOf(charge, status, links.at(-1)?.event.status));
  for (const link of links) await store.record(SERIAL, charge, [link]);
  return links;
}

describe('TerminalStore on a real SQLite file', () => {
  let database: TerminalDatabase;
  let dataSource: DataSource;
  let writer: SerialWriter;
  let store: TerminalStore;
  /** The statements SQLite starts, while a test listens. */
  let statements: string[];

  beforeEach(async () => {
    database = await openTerminalDatabase();
    dataSource = database.dataSource;
    writer = new SerialWriter(dataSource);
    store = new TerminalStore(writer, dataSource);
    statements = [];
    database.onStatement((sql) => statements.push(sql));
  });

  afterEach(() => database.close());

  /** The statements `work` makes SQLite start, each by its first word. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    await database.statementsSettled();
    statements = [];
    await work();
    await database.statementsSettled();
    return statements.map((sql) => sql.split(' ')[0]);
  }

  it('records an event and its transaction in one write, as TypeORM reads them back', async () => {
    const charge = order('00', 'sync');
    const key = transactionKey(charge.merchantId, charge.clientTransactionId);
    const acknowledgement = linkOf(charge, 'TERMINAL_ACKNOWLEDGED');
    expect(await statementsOf(() => store.record(SERIAL, charge, [acknowledgement]))).toEqual([
      'BEGIN',
      'INSERT',
      'INSERT',
      'COMMIT',
    ]);
    const final = linkOf(charge, 'APPROVAL', 'TERMINAL_ACKNOWLEDGED');
    expect(await statementsOf(() => store.record(SERIAL, charge, [final]))).toEqual([
      'BEGIN',
      'UPDATE',
      'INSERT',
      'COMMIT',
    ]);

    // TypeORM reads them back with the same values.
    const transaction = await dataSource.getRepository(TerminalTransactionEntity).findOneByOrFail({ key });
    expect(transaction).toMatchObject({ serialNumber: SERIAL, order: charge, status: 'APPROVAL' });
    expect(transaction.outcome).toEqual(final.outcome);
    const events = await dataSource.getRepository(TerminalEventEntity).find({ order: { seq: 'ASC' } });
    expect(events.map((e) => [e.eventId, e.envelope, e.outcome, e.acked])).toEqual([
      [acknowledgement.event.event_id, acknowledgement.event, null, false],
      [final.event.event_id, final.event, final.outcome, false],
    ]);

    expect(await store.findTransaction(key)).toEqual(transaction);
    expect(await store.findTransaction('demo-merchant:unknown')).toBeNull();
    expect((await store.lastEvent(key))?.envelope).toEqual(final.event);
    expect(await store.lastEvent('demo-merchant:unknown')).toBeNull();
  });

  it('finds the transactions a crash left running on this terminal, with their orders', async () => {
    const acknowledged = order('10', 'sync');
    const presented = order('11', 'sync');
    const requested = order('12', 'sync');
    await recordAll(store, acknowledged);
    await recordAll(store, presented, 'CARD_PRESENTED');
    await recordAll(store, requested, 'CARD_PRESENTED', 'APPROVAL_REQUESTED');
    await recordAll(store, order('13', 'sync'), 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL');
    const elsewhere = order('14', 'sync');
    await store.record('SIMUNIT002', elsewhere, [linkOf(elsewhere, 'TERMINAL_ACKNOWLEDGED')]);

    const open = await store.unfinished(SERIAL);
    const byStatus = [...open].sort((a, b) => a.status.localeCompare(b.status));
    expect(byStatus.map((t) => [t.order, t.status])).toEqual([
      [requested, 'APPROVAL_REQUESTED'],
      [presented, 'CARD_PRESENTED'],
      [acknowledged, 'TERMINAL_ACKNOWLEDGED'],
    ]);
    expect(await store.unfinished('SIMUNIT003')).toEqual([]);
  });

  it('records a run of events in one write: the transaction once, the events in one INSERT', async () => {
    const charge = order('00', 'sync');
    const key = transactionKey(charge.merchantId, charge.clientTransactionId);
    const acknowledgement = linkOf(charge, 'TERMINAL_ACKNOWLEDGED');
    await store.record(SERIAL, charge, [acknowledgement]);
    const card = linkOf(charge, 'CARD_PRESENTED', 'TERMINAL_ACKNOWLEDGED');
    const asked = linkOf(charge, 'APPROVAL_REQUESTED', 'CARD_PRESENTED');
    const final = linkOf(charge, 'APPROVAL', 'APPROVAL_REQUESTED');
    expect(await statementsOf(() => store.record(SERIAL, charge, [card, asked, final]))).toEqual([
      'BEGIN',
      'UPDATE',
      'INSERT',
      'COMMIT',
    ]);
    const transaction = await dataSource.getRepository(TerminalTransactionEntity).findOneByOrFail({ key });
    expect(transaction).toMatchObject({ status: 'APPROVAL', outcome: final.outcome });
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual([
      acknowledgement,
      card,
      asked,
      final,
    ]);

    // A run that opens the transaction creates it in the state of its last event.
    const other = order('00', 'sync');
    const otherKey = transactionKey(other.merchantId, other.clientTransactionId);
    const otherAcknowledgement = linkOf(other, 'TERMINAL_ACKNOWLEDGED');
    const rejected = linkOf(other, 'TERMINAL_REJECTED', 'TERMINAL_ACKNOWLEDGED');
    expect(await statementsOf(() => store.record(SERIAL, other, [otherAcknowledgement, rejected]))).toEqual([
      'BEGIN',
      'INSERT',
      'INSERT',
      'COMMIT',
    ]);
    expect(
      await dataSource.getRepository(TerminalTransactionEntity).findOneByOrFail({ key: otherKey }),
    ).toMatchObject({
      status: 'TERMINAL_REJECTED',
      outcome: rejected.outcome,
    });
    expect((await store.linkEvents(otherKey)).map((link) => link.event)).toEqual([
      otherAcknowledgement.event,
      rejected.event,
    ]);
  });

  it('refuses an acknowledgement whose transaction is stored, alone, and stores nothing of it', async () => {
    const charge = order('00', 'sync');
    await recordAll(store, charge, 'APPROVAL');
    const before = await dataSource.getRepository(TerminalEventEntity).count();
    const other = order('00', 'sync');
    // Queued together, they share one transaction: the refusal must not take the other write down.
    const [refused, kept] = await Promise.allSettled([
      store.record(SERIAL, charge, [linkOf({ ...charge, mode: 'async' }, 'TERMINAL_ACKNOWLEDGED')]),
      store.record(SERIAL, other, [linkOf(other, 'TERMINAL_ACKNOWLEDGED')]),
    ]);
    expect(refused).toMatchObject({
      status: 'rejected',
      reason: expect.any(TransactionAlreadyStoredError),
    });
    expect(kept.status).toBe('fulfilled');
    expect(await dataSource.getRepository(TerminalEventEntity).count()).toBe(before + 1);
    expect(
      (await store.findTransaction(transactionKey(charge.merchantId, charge.clientTransactionId)))?.order
        .mode,
    ).toBe('sync');
    // Alone: the INSERT that the key turns down, and nothing else.
    const again = statementsOf(() =>
      store.record(SERIAL, charge, [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')]).catch(() => undefined),
    );
    expect(await again).toEqual(['BEGIN', 'INSERT', 'COMMIT']);
  });

  it('queues events per terminal, oldest first, the order with acknowledgements only, in one statement', async () => {
    const first = order('00');
    const second = order('00');
    const firstLinks = await recordAll(store, first, 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL');
    const other = order('00');
    const otherLink = linkOf(other, 'TERMINAL_ACKNOWLEDGED');
    await store.record('SIMUNIT002', other, [otherLink]);
    const secondLinks = await recordAll(store, second, 'TERMINAL_REJECTED');

    let pending: Awaited<ReturnType<TerminalStore['pending']>> = [];
    expect(await statementsOf(async () => (pending = await store.pending(SERIAL, 100)))).toEqual(['SELECT']);
    expect(pending.map((row) => row.link)).toEqual([...firstLinks, ...secondLinks]);
    expect(pending.map((row) => row.seq)).toEqual([...pending.map((row) => row.seq)].sort((a, b) => a - b));
    expect((await store.pending(SERIAL, 2)).map((row) => row.link)).toEqual(firstLinks.slice(0, 2));
    expect((await store.pending('SIMUNIT002', 100)).map((row) => row.link)).toEqual([otherLink]);

    // The service stored the first three: they leave the queue at once, with no statement, and
    // the store in one statement of one write.
    const three = pending.slice(0, 3).map((row) => row.seq);
    expect(await statementsOf(() => store.acknowledge(three))).toEqual([]);
    const left = [firstLinks[3], ...secondLinks];
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual(left);
    // What they leave out of a read does not shorten it below its limit.
    expect((await store.pending(SERIAL, 2)).map((row) => row.link)).toEqual(left.slice(0, 2));
    expect(await statementsOf(() => store.writeAcknowledgements())).toEqual(['BEGIN', 'UPDATE', 'COMMIT']);
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual(left);
    expect(await store.queuedCount()).toBe(4);
    expect(await statementsOf(() => store.acknowledge([]))).toEqual([]);
    expect(await statementsOf(() => store.writeAcknowledgements())).toEqual([]);

    // Sent again on request, acknowledged or not, each with its order on the acknowledgement.
    expect(await store.linkEvents(transactionKey(first.merchantId, first.clientTransactionId))).toEqual(
      firstLinks,
    );
    expect(await store.linkEvents('demo-merchant:unknown')).toEqual([]);
  });

  it('acknowledgeEvents: the events a reply stored leave the queue, by event_id, written with the others', async () => {
    const charge = order('00', 'sync');
    const links = await recordAll(store, charge, 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL');
    const other = order('00');
    const otherLinks = await recordAll(store, other, 'TERMINAL_REJECTED');

    const ids = [...links.slice(0, 3).map((link) => link.event.event_id), 'not-an-event-of-this-store'];
    expect(await statementsOf(() => store.acknowledgeEvents(ids))).toEqual([]);
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual([links[3], ...otherLinks]);
    const ackedRows = () => dataSource.getRepository(TerminalEventEntity).findBy({ acked: true });
    expect(await ackedRows()).toEqual([]);

    // Notices and uplink answers held together go in one write.
    const [firstOther] = await store.pending(SERIAL, 100).then((rows) => rows.slice(1));
    await store.acknowledge([firstOther.seq]);
    expect(await statementsOf(() => store.writeAcknowledgements())).toEqual([
      'BEGIN',
      'UPDATE',
      'UPDATE',
      'COMMIT',
    ]);
    expect((await ackedRows()).map((row) => row.eventId).sort()).toEqual(
      [...ids.slice(0, 3), firstOther.link.event.event_id].sort(),
    );

    await store.acknowledgeEvents([links[3].event.event_id]);
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual(otherLinks.slice(1));
    await store.writeAcknowledgements();
    expect((await store.pending(SERIAL, 100)).map((row) => row.link)).toEqual(otherLinks.slice(1));
    // Still the terminal's record of the transaction.
    expect(await store.linkEvents(transactionKey(charge.merchantId, charge.clientTransactionId))).toEqual(
      links,
    );
  });

  describe('under the runtime', () => {
    function runtimeOn(): { runtime: TerminalRuntime; flushes: () => number; errors: unknown[] } {
      let flushes = 0;
      const errors: unknown[] = [];
      const runtime = new TerminalRuntime(
        profile('instant'),
        store,
        { flush: () => void flushes++, isUp: true },
        (error) => errors.push(error),
        { timers: REAL_TIMERS, scenarioWaitScale: 1 },
      );
      return { runtime, flushes: () => flushes, errors };
    }

    const refusal = (promise: Promise<unknown>): Promise<string> =>
      promise.then(
        () => 'no refusal',
        (error: unknown) => (error instanceof ContractError ? error.code : String(error)),
      );

    it('a sync charge at pace instant: one write of four statements, no read', async () => {
      const { runtime } = runtimeOn();
      const charge = order('00', 'sync');
      let reply: Awaited<ReturnType<TerminalRuntime['operate']>> | undefined;
      const run = await statementsOf(async () => (reply = await runtime.operate(charge)));
      expect(run).toEqual(['BEGIN', 'INSERT', 'INSERT', 'COMMIT']);
      expect(reply?.events.map((link) => link.event.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
      expect(await store.linkEvents(transactionKey(charge.merchantId, charge.clientTransactionId))).toEqual(
        reply?.events,
      );
    });

    it('an async charge at pace instant: one write of four statements, and the reply carries all of it', async () => {
      const { runtime, errors } = runtimeOn();
      const charge = order('00', 'async');
      let reply: Awaited<ReturnType<TerminalRuntime['operate']>> | undefined;
      const run = await statementsOf(async () => (reply = await runtime.operate(charge)));
      expect(run).toEqual(['BEGIN', 'INSERT', 'INSERT', 'COMMIT']);
      expect(await store.linkEvents(transactionKey(charge.merchantId, charge.clientTransactionId))).toEqual(
        reply?.events,
      );
      expect(reply?.events.map((link) => link.event.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
      expect(errors).toEqual([]);
    });

    it('an id run before is TRX-001 from the primary key: nothing stored, emitted or flushed', async () => {
      const { runtime, flushes, errors } = runtimeOn();
      const charge = order('00', 'sync');
      await runtime.operate(charge);
      const count = await dataSource.getRepository(TerminalEventEntity).count();
      const flushed = flushes();

      expect(await refusal(runtime.operate(charge))).toBe('TRX-001');
      expect(await refusal(runtime.operate({ ...charge, mode: 'async', type: 'authorization' }))).toBe(
        'TRX-001',
      );
      expect(
        await refusal(
          runtime.operate({ ...abortOrder('sync'), clientTransactionId: charge.clientTransactionId }),
        ),
      ).toBe('TRX-001');
      expect(runtime.busy).toBe(false);
      expect(flushes()).toBe(flushed);
      expect(await dataSource.getRepository(TerminalEventEntity).count()).toBe(count);

      // Abort orders still go through record: a sync abort with nothing running is its own
      // lifecycle, ACK then TERMINAL_REJECTED (TRX-002).
      const abort = abortOrder('sync');
      const reply = await runtime.operate(abort);
      expect(reply.events.map((link) => [link.event.status, link.event.failure_reason?.code])).toEqual([
        ['TERMINAL_ACKNOWLEDGED', undefined],
        ['TERMINAL_REJECTED', 'TRX-002'],
      ]);
      const next = await runtime.operate(order('00', 'sync'));
      expect(next.events.at(-1)?.event.status).toBe('APPROVAL');
      expect(errors).toEqual([]);
    });
  });
});
