import { SerialWriter } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { MerchantClockRepository } from './merchant-clock.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Logger: class {} }));

describe('MerchantClockRepository (real SQLite)', () => {
  let database: ApiDatabase;
  let clock: MerchantClockRepository;

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    await dataSource
      .getRepository(MerchantEntity)
      .insert({ merchantId: 'm-1', secretKey: 'secret-1', boundTerminalSerial: null });
    clock = new MerchantClockRepository(new SerialWriter(dataSource), dataSource);
  });

  afterEach(() => database.close());

  it('adds to the offset and answers the new one', async () => {
    expect(await clock.advance('m-1', 60)).toBe(60);
    expect(await clock.advance('m-1', 30)).toBe(90);
  });

  it('answers 401 AUTH-001, not a 500, for a merchant whose account is gone', async () => {
    await expect(clock.advance('m-gone', 60)).rejects.toMatchObject({ code: 'AUTH-001', status: 401 });
  });
});
