import { OTHER_MERCHANT, Stack, type SignedClient } from '@tps/testing';
import { amountOf, ensureDaytime, newBody, operate, searchPath, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const ONLINE = searchPath('local', 'online');

describeOnStores('transaction search, online and local', (store) => {
  let stack: Stack;
  let client: SignedClient;
  let other: SignedClient;
  const done: Record<'charge' | 'auth' | 'capture' | 'theirs', { ctid: string; reference: string }> =
    {} as never;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    client = stack.client();
    other = client.as(OTHER_MERCHANT);
    await ensureDaytime(client);
    const charge = newBody({ amount: amountOf(1000) });
    done.charge = {
      ctid: charge.client_transaction_id,
      reference: (await operate(client, 'local', 'sync', 'charge', charge)).reference as string,
    };
    const auth = newBody({ amount: amountOf(2000) });
    done.auth = {
      ctid: auth.client_transaction_id,
      reference: (await operate(client, 'cloud', 'async', 'authorization', auth)).reference as string,
    };
    const capture = newBody({ transaction_reference: done.auth.reference });
    done.capture = {
      ctid: capture.client_transaction_id,
      reference: (await operate(client, 'cloud', 'sync', 'capture', capture)).reference as string,
    };
    const theirs = newBody({ amount: amountOf(3000) });
    done.theirs = {
      ctid: theirs.client_transaction_id,
      reference: (await operate(other, 'local', 'sync', 'charge', theirs)).reference as string,
    };
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const ids = (answer: { body: Json }) => answer.body.items.map((item: Json) => item.client_transaction_id);

  it('answers what was done, newest first, each item with its ordered events, and nothing of another merchant', async () => {
    const answer = await client.post<Json>(ONLINE, {});
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([done.capture.ctid, done.auth.ctid, done.charge.ctid]);
    expect(answer.body.next_cursor).toBeNull();
    const [capture, auth, charge] = answer.body.items;
    expect(charge).toEqual({
      client_transaction_id: done.charge.ctid,
      transaction_reference: done.charge.reference,
      operation_type: 'charge',
      status: 'APPROVAL',
      business_state: 'SETTLED',
      terminal_serial: 'SIM0000001',
      amount: {
        iva: 160,
        subtotal_iva: 840,
        subtotal_iva0: 0,
        extra_taxes: { airport_tax: 0, iac: 0, ice: 0, travel_agency: 0 },
        tip: 0,
        total: 1000,
      },
      card: { pan: '************4242', franchise: 'VISA', card_type: 'CREDIT', reading_type: 'CHIP' },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      events: expect.any(Array),
    });
    expect(auth).toMatchObject({
      operation_type: 'authorization',
      business_state: 'CAPTURED',
      terminal_serial: 'SIM0000002',
    });
    expect(capture).toMatchObject({
      operation_type: 'capture',
      business_state: 'SETTLED',
      transaction_reference: done.capture.reference,
    });
    for (const item of answer.body.items) {
      expect(item.events.map((e: Json) => e.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
      item.events.forEach((event: Json, i: number) => {
        expect(Object.keys(event).sort()).toEqual(['event_id', 'occurred_at', 'previous_status', 'status']);
        expect(event.previous_status).toBe(i === 0 ? '' : item.events[i - 1].status);
      });
    }
    const theirs = await other.post<Json>(ONLINE, {});
    expect(ids(theirs)).toEqual([done.theirs.ctid]);
  });

  it('covers the whole merchant in the Cloud form too, and refuses another merchant’s serial', async () => {
    const cloud = await client.post<Json>(searchPath('cloud', 'online', 'SIM0000001'), {});
    expect(ids(cloud)).toEqual([done.capture.ctid, done.auth.ctid, done.charge.ctid]);
    const foreign = await client.post<Json>(searchPath('cloud', 'online', 'SIM0000003'), {});
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NF-002' });
  });

  it.each([
    [{ terminal_serial: 'SIM0000001' }, ['charge']],
    [{ terminal_serial: 'SIM0000003' }, []],
    [{ operation_type: 'authorization' }, ['auth']],
    [{ status: 'APPROVAL' }, ['capture', 'auth', 'charge']],
    [{ status: 'DECLINED' }, []],
    [{ transaction_reference: 'capture' }, ['capture']],
    [{ client_transaction_id: 'auth' }, ['auth']],
    [{ transaction_reference: 'theirs' }, []],
  ] as Array<[Json, Array<keyof typeof done>]>)('filters by %j', async (filter, expected) => {
    const resolved = Object.fromEntries(
      Object.entries(filter).map(([key, value]) => [
        key,
        key === 'transaction_reference'
          ? done[value as keyof typeof done].reference
          : key === 'client_transaction_id'
            ? done[value as keyof typeof done].ctid
            : value,
      ]),
    );
    const answer = await client.post<Json>(ONLINE, resolved);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected.map((name) => done[name].ctid));
  });

  it('filters by from and to on the merchant clock', async () => {
    const all = (await client.post<Json>(ONLINE, {})).body.items;
    const authAt = all[1].created_at;
    expect(ids(await client.post<Json>(ONLINE, { from: authAt }))).toEqual([
      done.capture.ctid,
      done.auth.ctid,
    ]);
    expect(ids(await client.post<Json>(ONLINE, { to: authAt }))).toEqual([done.auth.ctid, done.charge.ctid]);
    expect(ids(await client.post<Json>(ONLINE, { from: authAt, to: authAt }))).toEqual([done.auth.ctid]);
  });

  it.each([ONLINE, searchPath('cloud', 'local')])('pages %s with limit and cursor', async (path) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const answer = await client.post<Json>(path, { limit: 1, ...(cursor ? { cursor } : {}) });
      expect(answer.status).toBe(200);
      seen.push(...ids(answer));
      cursor = answer.body.next_cursor ?? undefined;
      if (cursor === undefined) break;
    }
    const expected = path === ONLINE ? [done.capture, done.auth, done.charge] : [done.capture, done.auth];
    expect(seen).toEqual(expected.map((d) => d.ctid));
  });

  it('reads the terminal’s own store in local search, with the same events as the service', async () => {
    const bound = await client.post<Json>(searchPath('local', 'local'), {});
    expect(ids(bound)).toEqual([done.charge.ctid]);
    const cloud = await client.post<Json>(searchPath('cloud', 'local'), {});
    expect(ids(cloud)).toEqual([done.capture.ctid, done.auth.ctid]);
    const online = await client.post<Json>(ONLINE, { terminal_serial: 'SIM0000002' });
    // Each side dates the record when it took the request; the business state is the service's alone.
    const strip = (items: Json[]) =>
      items.map(({ business_state: _state, created_at: _created, ...rest }) => rest);
    expect(strip(cloud.body.items)).toEqual(strip(online.body.items));
    expect(cloud.body.items.every((item: Json) => item.business_state === null)).toBe(true);
    const filtered = await client.post<Json>(searchPath('cloud', 'local'), {
      transaction_reference: done.capture.reference,
    });
    expect(ids(filtered)).toEqual([done.capture.ctid]);
    const byType = await client.post<Json>(searchPath('cloud', 'local'), { operation_type: 'authorization' });
    expect(ids(byType)).toEqual([done.auth.ctid]);
  });

  it('keeps local search to the merchant: its own terminal only, and none of another’s records', async () => {
    expect(ids(await other.post<Json>(searchPath('local', 'local'), {}))).toEqual([done.theirs.ctid]);
    const foreign = await other.post<Json>(searchPath('cloud', 'local', 'SIM0000002'), {});
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NF-002' });
  });

  it.each([
    [searchPath('local', 'local'), { terminal_serial: 'SIM0000001' }, 'PAR-001', 'terminal_serial'],
    [ONLINE, { limit: 0 }, 'PAR-002', 'limit'],
    [ONLINE, { limit: 101 }, 'PAR-002', 'limit'],
    [ONLINE, { from: 'yesterday' }, 'PAR-002', 'from'],
    [ONLINE, { status: 'SETTLED' }, 'PAR-002', 'status'],
    [ONLINE, { cursor: 'not-a-cursor' }, 'PAR-002', 'cursor'],
    [searchPath('cloud', 'local'), { cursor: 'not-a-cursor' }, 'PAR-002', 'cursor'],
  ])('refuses bad filters: %s %j', async (path, body, code, param) => {
    const answer = await client.post<Json>(path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code, param });
  });
});
