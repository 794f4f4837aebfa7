import { SEEDED_SERIALS, Stack } from '@tps/testing';
import type { Json } from './payment-helpers';

interface TerminalLink {
  serialNumber: string;
  link: string;
}

/**
 * Several replicas on one PostgreSQL database (contract, "Several replicas on one PostgreSQL
 * database"): the sandbox's answers about terminal links count the uplinks every live replica
 * holds. The simulator links to the first replica; every question here is asked of the second.
 */
describe('sandbox answers about links, asked of a replica that holds none [postgres]', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres', replicas: 2 });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the seeded terminals as linked', async () => {
    const list = await stack.clientOf(1).get<TerminalLink[]>('/sandbox/terminals');
    expect(list.status).toBe(200);
    const seeded = list.body.filter((terminal) => SEEDED_SERIALS.includes(terminal.serialNumber));
    expect(seeded.length).toBeGreaterThan(0);
    for (const terminal of seeded) expect(terminal).toEqual({ ...terminal, link: 'up' });
  });

  it('creates an account whose terminals answer linked, lists and resets them as linked', async () => {
    const created = await stack.clientOf(1).post<Json>('/sandbox/accounts', { terminals: 3 });
    expect(created.status).toBe(201);
    const terminals = created.body.terminals as TerminalLink[];
    expect(terminals.map((terminal) => terminal.link)).toEqual(['up', 'up', 'up']);
    const account = stack.clientOf(1).as({
      merchantId: String(created.body.merchant_id),
      secret: String(created.body.secret_key),
    });
    const serials = terminals.map((terminal) => terminal.serialNumber);
    const linkedAt = async (): Promise<Map<string, string>> =>
      new Map(
        (
          await stack.store.rows<{ serial_number: string; linked_at: string }>(
            'api',
            `SELECT serial_number, linked_at::text AS linked_at FROM terminal_uplinks
             WHERE serial_number IN (${serials.map(() => '?').join(',')})`,
            serials,
          )
        ).map((row) => [row.serial_number, row.linked_at]),
      );
    const before = await linkedAt();
    expect(before.size).toBe(serials.length);

    expect((await account.post('/sandbox/reset', {})).status).toBe(200);
    // Answered once the terminals linked again: each uplink is a new one.
    const after = await linkedAt();
    for (const serial of serials) {
      expect({ serial, linkedAgain: after.has(serial) && after.get(serial) !== before.get(serial) }).toEqual({
        serial,
        linkedAgain: true,
      });
    }
    const list = await account.get<TerminalLink[]>('/sandbox/terminals');
    expect(list.body.map((terminal) => terminal.link)).toEqual(['up', 'up', 'up']);
  }, 30_000);
});
