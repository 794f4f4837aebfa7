import { SerialWriter } from '@tps/database';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { MerchantEntity } from '../auth/merchant.entity';
import { newTerminal } from '../seed/sandbox-seed';
import { TerminalRepository } from './terminal.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Logger: class {} }));

describe('TerminalRepository (real SQLite)', () => {
  let database: ApiDatabase;
  let terminals: TerminalRepository;

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    await dataSource.getRepository(MerchantEntity).insert([
      { merchantId: 'm-1', secretKey: 'secret-1', boundTerminalSerial: null },
      { merchantId: 'm-2', secretKey: 'secret-2', boundTerminalSerial: null },
    ]);
    terminals = new TerminalRepository(new SerialWriter(dataSource), dataSource);
  });

  afterEach(() => database.close());

  it('adds terminals up to the fleet limit, a taken serial refused, and reads them back as entities', async () => {
    expect(await terminals.insert(newTerminal('SIM0000002', 'm-1', 'instant', 'front'), 2)).toBe('inserted');
    expect(await terminals.insert(newTerminal('SIM0000001', 'm-1', 'instant', 'back'), 2)).toBe('inserted');
    expect(await terminals.insert(newTerminal('SIM0000003', 'm-1', 'instant', 'front'), 2)).toBe('full');
    expect(await terminals.insert(newTerminal('SIM0000001', 'm-2', 'instant', 'front'))).toBe('taken');
    expect(await terminals.insert(newTerminal('SIM0000004', 'm-2', 'realistic', 'front'))).toBe('inserted');

    const found = await terminals.findBySerial('SIM0000001');
    expect(found).toMatchObject({ merchantId: 'm-1', room: 'back', offline: false, cardholder: 'auto' });
    expect(found?.createdAt).toBeInstanceOf(Date);
    expect(found?.cardholderSetAt).toBeNull();
    expect(await terminals.findForMerchant('m-2', 'SIM0000001')).toBeNull();
    // Created at the same time (made so here: the two inserts may fall in two seconds): then by serial.
    await database.dataSource.query(
      "UPDATE terminals SET created_at = '2026-11-30 10:00:00' WHERE merchant_id = 'm-1'",
    );
    expect((await terminals.listForMerchant('m-1')).map((t) => t.serialNumber)).toEqual([
      'SIM0000001',
      'SIM0000002',
    ]);
    expect((await terminals.listAll()).map((t) => t.serialNumber)).toEqual([
      'SIM0000001',
      'SIM0000002',
      'SIM0000004',
    ]);
    expect((await terminals.findBySerials(['SIM0000004', 'SIM0000009', 'SIM0000001'])).length).toBe(2);
    expect(await terminals.countAll()).toBe(3);
  });

  it('stores no terminal for a merchant that is gone (its account removed meanwhile)', async () => {
    expect(await terminals.insert(newTerminal('SIM0000005', 'm-gone', 'instant', 'front'))).toBe('gone');
    expect(await terminals.findBySerial('SIM0000005')).toBeNull();
  });

  it('saves settings, counts and lists the online ones, and lapses `manual` only as it was set', async () => {
    await terminals.insert(newTerminal('SIM0000001', 'm-1', 'instant', 'front'));
    await terminals.insert(newTerminal('SIM0000002', 'm-1', 'instant', 'front'));
    const terminal = (await terminals.findBySerial('SIM0000002'))!;
    terminal.offline = true;
    terminal.cardholder = 'manual';
    terminal.cardholderSetAt = '2026-01-01T00:00:00.000Z';
    await terminals.save(terminal);
    expect(await terminals.findBySerial('SIM0000002')).toEqual(terminal);
    expect(await terminals.countOnline()).toBe(1);
    expect(await terminals.listOnlineSerials()).toEqual(['SIM0000001']);
    expect((await terminals.listManual()).map((t) => t.serialNumber)).toEqual(['SIM0000002']);

    expect(await terminals.lapseManual('SIM0000002', null)).toBe(false);
    expect(await terminals.lapseManual('SIM0000002', '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(await terminals.findBySerial('SIM0000002')).toMatchObject({
      cardholder: 'auto',
      cardholderSetAt: null,
      cardholderSetFrom: null,
    });
    expect(await terminals.lapseManual('SIM0000002', '2026-01-01T00:00:00.000Z')).toBe(false);
    // A `manual` stored with no time (IS NULL) lapses as set.
    const unset = (await terminals.findBySerial('SIM0000001'))!;
    unset.cardholder = 'manual';
    await terminals.save(unset);
    expect(await terminals.lapseManual('SIM0000001', null)).toBe(true);
  });
});
