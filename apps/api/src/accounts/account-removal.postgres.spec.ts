import { SerialWriter } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';
import { newTerminal } from '../seed/sandbox-seed';
import { TerminalRepository } from '../terminals/terminal.repository';
import { openApiPostgres, type ApiPostgres } from '../testing/api-database';
import { AccountRepository } from './account.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Logger: class {} }));

const ROUNDS = 20;

/**
 * An account removed while a terminal is added to it (a conformance run's own terminal, a
 * `POST /sandbox/terminals`): on PostgreSQL both writes run at once on connections of their own.
 */
describe('removing an account while a terminal is added to it, on PostgreSQL', () => {
  let database: ApiPostgres;

  beforeAll(async () => {
    database = await openApiPostgres(4);
  });

  afterAll(() => database.close());

  it('leaves no terminal of the removed merchant, and names every one it removed', async () => {
    const writer = new SerialWriter(database.dataSource);
    const accounts = new AccountRepository(writer, database.dataSource);
    const terminals = new TerminalRepository(writer, database.dataSource);
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const merchantId = `m-${round}`;
      const serial = `RACE${String(round).padStart(4, '0')}`;
      await database.dataSource
        .getRepository(MerchantEntity)
        .insert({ merchantId, secretKey: `secret-${round}`, boundTerminalSerial: null });
      const [removed, inserted] = await Promise.all([
        accounts.remove(merchantId),
        terminals.insert(newTerminal(serial, merchantId, 'instant', 'front')),
      ]);
      outcomes.add(inserted);
      expect(await terminals.findBySerial(serial)).toBeNull();
      // A terminal stored before the removal is one it removed, and tells the simulator of.
      expect(removed.includes(serial)).toBe(inserted === 'inserted');
    }
    expect([...outcomes].every((outcome) => outcome === 'inserted' || outcome === 'gone')).toBe(true);
  });
});
