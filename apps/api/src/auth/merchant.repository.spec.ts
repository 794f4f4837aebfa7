import { SerialWriter } from '@tps/database';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { TerminalEntity } from '../terminals/terminal.entity';
import { MerchantEntity } from './merchant.entity';
import { MerchantRepository } from './merchant.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const terminal = (serialNumber: string, merchantId: string): Partial<TerminalEntity> => ({
  serialNumber,
  merchantId,
  model: 'A920',
  wifiMac: '00:00:00:00:00:01',
  room: 'front',
  pace: 'instant',
});

describe('MerchantRepository.findWithTerminal (real SQLite)', () => {
  let database: ApiDatabase;
  let repository: MerchantRepository;
  const statements: string[] = [];

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    await dataSource.getRepository(MerchantEntity).insert([
      { merchantId: 'm-1', secretKey: 'secret-1', boundTerminalSerial: 'SIM0000001' },
      { merchantId: 'm-2', secretKey: 'secret-2', boundTerminalSerial: null },
    ]);
    await dataSource
      .getRepository(TerminalEntity)
      .insert([terminal('SIM0000001', 'm-1'), terminal('SIM0000002', 'm-1'), terminal('SIM0000003', 'm-2')]);
    repository = new MerchantRepository(new SerialWriter(dataSource), dataSource);
    database.onStatement((sql) => statements.push(sql));
  });

  afterEach(() => database.close());

  it('reads the merchant and the terminal the path names in one statement', async () => {
    await database.statementsSettled();
    statements.length = 0;
    const found = await repository.findWithTerminal('m-1', 'SIM0000002');
    await database.statementsSettled();
    expect(found?.merchant).toMatchObject({ merchantId: 'm-1', secretKey: 'secret-1' });
    expect(found?.merchant.createdAt).toBeInstanceOf(Date);
    expect(found?.terminal).toMatchObject({ serialNumber: 'SIM0000002', merchantId: 'm-1', pace: 'instant' });
    expect(found?.terminal?.offline).toBe(false);
    expect(statements).toHaveLength(1);
  });

  it('reads the bound terminal when the path names none (Local form)', async () => {
    const found = await repository.findWithTerminal('m-1', undefined);
    expect(found?.terminal?.serialNumber).toBe('SIM0000001');
  });

  it("gives no terminal for another merchant's serial, an unknown one, or no bound one", async () => {
    expect((await repository.findWithTerminal('m-1', 'SIM0000003'))?.terminal).toBeNull();
    expect((await repository.findWithTerminal('m-1', 'SIM0000099'))?.terminal).toBeNull();
    const unbound = await repository.findWithTerminal('m-2', undefined);
    expect(unbound?.merchant.merchantId).toBe('m-2');
    expect(unbound?.terminal).toBeNull();
  });

  it('gives nothing for an unknown merchant', async () => {
    expect(await repository.findWithTerminal('m-9', 'SIM0000001')).toBeNull();
  });
});
