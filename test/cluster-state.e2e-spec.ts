import { randomUUID } from 'node:crypto';
import { poll, SEEDED_SERIALS, SignedClient } from '@tps/testing';
import { Replicas } from './cluster-replicas';
import { amountOf, searchPath, type Json } from './payment-helpers';

/** Two API replicas on one PostgreSQL database, the simulator linked to the first: set on A, seen on B. */
describe('state shared by API replicas on one PostgreSQL database', () => {
  let replicas: Replicas;
  let a: SignedClient;
  let b: SignedClient;

  beforeAll(async () => {
    replicas = new Replicas();
    const [first, second] = await replicas.start(2);
    await replicas.startSimulator(first);
    a = new SignedClient(first.url);
    b = new SignedClient(second.url);
    await poll(
      'the seeded terminals to link',
      async () => {
        const health = (await (await fetch(`${first.url}/health`)).json()) as Json;
        return health.linked_terminals >= SEEDED_SERIALS.length ? true : undefined;
      },
      10_000,
    );
    for (const serial of ['SIM0000001', 'SIM0000002']) {
      expect((await a.patch(`/sandbox/terminals/${serial}`, { pace: 'instant' })).status).toBe(200);
    }
  });

  afterAll(async () => {
    await replicas.stop();
  });

  it('reads its writes: 300 charges answered by A, each searched on B at once, none stale', async () => {
    const stale: string[] = [];
    for (let n = 0; n < 300; n++) {
      const id = randomUUID();
      const serial = n % 2 === 0 ? 'SIM0000001' : 'SIM0000002';
      const answer = await a.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
        amount: amountOf(10_000 + n * 100),
        client_transaction_id: id,
      });
      expect([answer.status, answer.body.code]).toEqual([200, undefined]);
      const expected = answer.body.approved === true ? 'APPROVAL' : 'DECLINED';
      const read = await b.post<Json>(searchPath('local', 'online'), { client_transaction_id: id });
      const item = read.body.items?.[0] as Json | undefined;
      if (item?.status !== expected)
        stale.push(`${id}: answered ${expected}, B read ${item?.status ?? 'nothing'}`);
    }
    expect(stale).toEqual([]);
  });

  it("moves the merchant's clock on A, and B reads it moved", async () => {
    const moved = await a.post<Json>('/sandbox/clock', { advance_seconds: 3600 });
    expect(moved.status).toBe(200);
    const read = await b.get<Json>('/sandbox/clock');
    expect(read.body.offset_seconds).toBe(moved.body.offset_seconds);
    expect(read.body.offset_seconds).toBeGreaterThanOrEqual(3600);
  });

  it("changes a terminal's settings and cardholder on A, and B answers them", async () => {
    const changed = await a.patch<Json>('/sandbox/terminals/SIM0000002', {
      printer: 'paper_out',
      cardholder: 'manual',
    });
    expect(changed.status).toBe(200);
    const fleet = await b.get<Json[]>('/sandbox/terminals');
    const terminal = fleet.body.find((each) => each.serialNumber === 'SIM0000002');
    expect(terminal).toMatchObject({ printer: 'paper_out', cardholder: 'manual', pace: 'instant' });
    expect(terminal?.cardholderManual).toEqual(changed.body.cardholderManual);

    expect(
      (await a.patch('/sandbox/terminals/SIM0000002', { printer: 'ok', cardholder: 'auto' })).status,
    ).toBe(200);
    const after = await b.get<Json[]>('/sandbox/terminals');
    expect(after.body.find((each) => each.serialNumber === 'SIM0000002')).toMatchObject({
      printer: 'ok',
      cardholder: 'auto',
    });
  });

  it('creates an account on A that B serves, and deletes it on B so that A refuses it', async () => {
    const created = await new SignedClient(replicas.apis[0].url).post<Json>('/sandbox/accounts', {});
    expect(created.status).toBe(201);
    const credentials = {
      merchantId: created.body.merchant_id as string,
      secret: created.body.secret_key as string,
    };

    const onB = b.as(credentials);
    const fleet = await onB.get<Json[]>('/sandbox/terminals');
    expect(fleet.status).toBe(200);
    expect(fleet.body.map((terminal) => terminal.serialNumber).sort()).toEqual(
      (created.body.terminals as Json[]).map((terminal) => terminal.serialNumber).sort(),
    );
    expect((await onB.delete('/sandbox/accounts/me')).status).toBe(204);
    expect((await a.as(credentials).get('/sandbox/clock')).status).toBe(401);
  });
});
