import { randomUUID } from 'node:crypto';
import { poll, Stack } from '@tps/testing';
import { amountOf, newBody, operationPath, searchPath, type Form, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

/**
 * Contract §13: nothing is told before it is stored, "outcome unknown" is not "offline", and
 * nothing a terminal did is dropped. Each case reproduces such a failure for real.
 *
 * The cases share one stack: each sets the pace of the terminal it uses, and each names its own
 * transaction. The simulator's crash comes last; the stack runs again after it, on a restarted
 * simulator.
 */
describeOnStores('what the service tells, it has stored', (store) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ store });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const pace = async (serial: string, value: 'instant' | 'fast' | 'realistic'): Promise<void> => {
    expect((await stack.client().patch(`/sandbox/terminals/${serial}`, { pace: value })).status).toBe(200);
  };

  const online = async (id: string): Promise<Json | undefined> => {
    const answer = await stack
      .client()
      .post<Json>(searchPath('local', 'online'), { client_transaction_id: id });
    return answer.body.items?.[0] as Json | undefined;
  };

  /** A search item agrees with itself: its status is its last event's, its business state fits. */
  function expectConsistent(item: Json): void {
    const events = item.events as Json[];
    expect(events.at(-1)?.status).toBe(item.status);
    if (item.business_state !== null) expect(item.status).toBe('APPROVAL');
  }

  it('read-your-writes: 200 sync charges, Local and Cloud, each in search as answered at once', async () => {
    await pace('SIM0000001', 'instant');
    await pace('SIM0000002', 'instant');
    const stale: string[] = [];
    for (let i = 0; i < 200; i++) {
      const form: Form = i % 2 === 0 ? 'local' : 'cloud';
      const body = newBody({ amount: amountOf(10000 + (i % 3 === 0 ? 51 : 0)) });
      const response = await stack.client().post<Json>(operationPath(form, 'sync', 'charge'), body);
      expect(response.status).toBe(200);
      const item = await online(body.client_transaction_id as string);
      const expected = response.body.approved === true ? 'APPROVAL' : 'DECLINED';
      if (item?.status !== expected) stale.push(`${form} ${i}: ${item?.status}`);
      if (item !== undefined) expectConsistent(item);
    }
    expect(stale).toEqual([]);
  });

  it('a sync abort answers once the canceled transaction is stored', async () => {
    await pace('SIM0000002', 'realistic');
    const body = newBody({ amount: amountOf(10097) }); // 97: waits for a person
    const charge = stack.client().post<Json>(operationPath('cloud', 'sync', 'charge'), body);
    await poll(
      'the charge to be acknowledged',
      async () => ((await online(body.client_transaction_id)) ? true : undefined),
      10_000,
    );
    const abort = await stack.client().post<Json>('/terminal/v1/SIM0000002/sync/abort', {
      target_client_transaction_id: body.client_transaction_id,
    });
    expect(abort.status).toBe(200);
    const item = await online(body.client_transaction_id as string);
    expect(item?.status).toBe('TERMINAL_CANCELED');
    expect((await charge).body.code).toBe('TER-104');
  });

  it('identical async requests at once all get the stored acknowledgement, never 504', async () => {
    await pace('SIM0000002', 'fast');
    for (let round = 0; round < 10; round++) {
      const body = newBody({ amount: amountOf(10000) });
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          stack.client().post<Json>(operationPath('cloud', 'async', 'charge'), body),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.event_id)).size).toBe(1);
      await poll(
        'the terminal to finish',
        async () => {
          const item = await online(body.client_transaction_id as string);
          return item !== undefined && FINAL.includes(item.status as string) ? true : undefined;
        },
        10_000,
      );
    }
  });

  it('a link cut after the terminal took a sync charge is 504 TER-002, and a retry answers the outcome', async () => {
    await pace('SIM0000002', 'realistic');
    const body = newBody({ amount: amountOf(10000) });
    const path = operationPath('cloud', 'sync', 'charge');
    const pending = stack.client().post<Json>(path, body);
    await poll(
      'the charge to be acknowledged',
      async () => ((await online(body.client_transaction_id)) ? true : undefined),
      10_000,
    );
    expect((await stack.client().post('/sandbox/terminals/SIM0000002/offline')).status).toBe(200);
    const cut = await pending;
    expect({ status: cut.status, code: cut.body.code }).toEqual({ status: 504, code: 'TER-002' });

    expect((await stack.client().post('/sandbox/terminals/SIM0000002/online')).status).toBe(200);
    const item = await poll(
      'the terminal events to complete the record',
      async () => {
        const found = await online(body.client_transaction_id as string);
        return found?.status === 'APPROVAL' ? found : undefined;
      },
      15_000,
    );
    expectConsistent(item);
    const retried = await stack.client().post<Json>(path, body);
    expect(retried.status).toBe(200);
    expect((retried.body.rawResponse as Json).transaction_reference).toBe(item.transaction_reference);
  });

  it('a Local charge taken by an offline terminal that then crashes is recorded from its events', async () => {
    await pace('SIM0000001', 'realistic');
    expect((await stack.client().post('/sandbox/terminals/SIM0000001/offline')).status).toBe(200);
    // Scenario 95 (contract §10): the acquirer answers only after 10 s, then approves.
    const body = newBody({ amount: amountOf(10095) });
    const path = operationPath('local', 'sync', 'charge');
    const pending = stack.client().post<Json>(path, body);
    // The crash comes while the acquirer is asked: once the terminal has stored APPROVAL_REQUESTED.
    await poll(
      'the terminal to ask the acquirer',
      async () => {
        const asked = await stack.store.rows(
          'terminal',
          `SELECT seq FROM terminal_events WHERE transaction_key = ? AND envelope LIKE '%"status":"APPROVAL_REQUESTED"%'`,
          [`demo-merchant:${body.client_transaction_id as string}`],
        );
        return asked.length === 1 ? true : undefined;
      },
      10_000,
    );
    await stack.simulator?.kill();
    const lost = await pending;
    expect({ status: lost.status, code: lost.body.code }).toEqual({ status: 504, code: 'TER-002' });

    // The service keeps what it knows of it; even a service with no record at all (restored from
    // an older copy, here: the row removed) records it from the terminal's events. The restarted
    // terminal asks the acquirer again (it had asked, nothing more), and scenario 95 approves.
    // Its row removed behind the API's back, as an older copy of the database would lack it.
    await stack.store.execute('api', 'DELETE FROM transactions WHERE client_transaction_id = ?', [
      body.client_transaction_id,
    ]);
    await stack.startSimulator();
    await stack.waitLinked(2);
    expect((await stack.client().post('/sandbox/terminals/SIM0000001/online')).status).toBe(200);
    const item = await poll(
      'the terminal events to reach the service',
      async () => {
        const found = await online(body.client_transaction_id as string);
        return found !== undefined && FINAL.includes(found.status as string) ? found : undefined;
      },
      20_000,
    );
    expect(item.status).toBe('APPROVAL');
    expectConsistent(item);
    const retried = await stack.client().post<Json>(path, body);
    expect(retried.status).toBe(200);
    expect((retried.body.rawResponse as Json).transaction_reference).toBe(item.transaction_reference);
    const refund = await stack.client().post<Json>(operationPath('local', 'sync', 'refund'), {
      client_transaction_id: randomUUID(),
      transaction_reference: item.transaction_reference,
    });
    expect(refund.status).toBe(200);
  });
});
