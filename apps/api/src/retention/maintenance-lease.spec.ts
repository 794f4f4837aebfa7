import { SerialWriter } from '@tps/database';
import { ApiConfig } from '../config/api-config';
import { DeliveryOwner } from '../webhooks/delivery-owner';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { MaintenanceLease } from './maintenance-lease';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Logger: class {} }));

describe('MaintenanceLease (real SQLite): one replica at a time sweeps', () => {
  let database: ApiDatabase;
  let replicaA: MaintenanceLease;
  let replicaB: MaintenanceLease;

  beforeEach(async () => {
    database = await openApiDatabase();
    const writer = new SerialWriter(database.dataSource);
    const replica = (id: string) =>
      new MaintenanceLease(
        new DeliveryOwner(Object.assign(new ApiConfig(), { REPLICA_ID: id })),
        writer,
        database.dataSource,
      );
    replicaA = replica('a');
    replicaB = replica('b');
  });

  afterEach(async () => {
    jest.useRealTimers();
    await database.close();
  });

  it('is held by the first to claim it, renewed by it, and taken over only once it lapsed', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    expect(await replicaA.claim('retention', 60_000)).toBe(true);
    expect(await replicaB.claim('retention', 60_000)).toBe(false);
    jest.setSystemTime(1_050_000);
    expect(await replicaA.claim('retention', 60_000)).toBe(true);
    jest.setSystemTime(1_100_000);
    expect(await replicaB.claim('retention', 60_000)).toBe(false);
    // A stopped renewing at 1,050,000: its lease ends at 1,110,000.
    jest.setSystemTime(1_110_001);
    expect(await replicaB.claim('retention', 60_000)).toBe(true);
    expect(await replicaA.claim('retention', 60_000)).toBe(false);
  });

  it('is given back at a stop: another takes it at once, not once it lapsed', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    expect(await replicaA.claim('retention', 60_000)).toBe(true);
    expect(await replicaA.claim('outbox-readings', 60_000)).toBe(true);
    await replicaA.beforeApplicationShutdown();
    jest.setSystemTime(1_000_001);
    expect(await replicaB.claim('retention', 60_000)).toBe(true);
    expect(await replicaB.claim('outbox-readings', 60_000)).toBe(true);
  });
});
