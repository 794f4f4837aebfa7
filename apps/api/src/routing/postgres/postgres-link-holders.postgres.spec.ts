import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  API_MIGRATIONS,
  SecretKeyring,
  closeDataSource,
  dataSourceOptions,
  installSecretKeyring,
  openDataSource,
  sqlOf,
} from '@tps/database';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../../api-entities';
import { ThisReplica } from '../this-replica';
import { PostgresLeftBehindRequests } from './postgres-left-behind-requests';
import { PostgresLinkHolders } from './postgres-link-holders';
import { PostgresReplicaRows } from './postgres-replica-rows';
import { openRoutingDataSource } from './routing-data-source';

describe('PostgresLinkHolders on PostgreSQL', () => {
  let dir: string;
  let testStore: TestStore;
  let app: DataSource;
  let routing: DataSource;
  let mine: ThisReplica;
  let other: ThisReplica;
  let holders: PostgresLinkHolders;

  const replica = async (id: string): Promise<ThisReplica> => {
    const joined = new ThisReplica(new PostgresReplicaRows(routing), id, 60_000, () => undefined);
    await joined.join();
    return joined;
  };
  const uplinkHolders = async (): Promise<Record<string, string>> => {
    const rows = await sqlOf(routing.manager).all<{ serial_number: string; replica_id: string }>(
      'SELECT serial_number, replica_id FROM terminal_uplinks',
      [],
    );
    return Object.fromEntries(rows.map((row) => [row.serial_number, row.replica_id]));
  };

  beforeAll(async () => {
    installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
    dir = mkdtempSync(join(tmpdir(), 'tps-link-holders-pg-'));
    testStore = new TestStore('postgres', dir);
    const url = await testStore.url('api');
    app = await openDataSource(
      dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize: 1 }),
    );
    routing = await openRoutingDataSource(app, () => undefined);
    mine = await replica('a');
    other = await replica('b');
    holders = new PostgresLinkHolders(routing, mine);
  });

  beforeEach(async () => {
    await sqlOf(routing.manager).script('DELETE FROM terminal_uplinks; DELETE FROM share_holders');
  });

  afterAll(async () => {
    await mine.leave();
    await other.leave();
    await closeDataSource(routing);
    await closeDataSource(app);
    await testStore.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the control links it opens, again with a newer grant, and removes the ones it closes', async () => {
    await holders.controlOpened('share-1', 'sim-1', 1);
    expect(await holders.liveShareHolder('share-1')).toEqual({ instance: 'sim-1', epoch: 1 });
    await holders.controlOpened('share-1', 'sim-2', 2);
    expect(await holders.liveShareHolder('share-1')).toEqual({ instance: 'sim-2', epoch: 2 });
    expect((await holders.liveLinks('share-1')).control).toBe(true);
    await holders.controlClosed('share-1');
    expect(await holders.liveShareHolder('share-1')).toBeUndefined();
    expect((await holders.liveLinks('share-1')).control).toBe(false);
  });

  it('stores a batch of uplink changes as it stands after it, and reads the live ones among serials', async () => {
    await holders.uplinksChanged(
      new Map([
        ['SIM1', true],
        ['SIM2', true],
      ]),
    );
    await holders.uplinksChanged(
      new Map([
        ['SIM1', false],
        ['SIM3', true],
      ]),
    );
    expect([...(await holders.liveUplinksAmong(['SIM1', 'SIM2', 'SIM3', 'SIM4'])).keys()].sort()).toEqual([
      'SIM2',
      'SIM3',
    ]);
    expect([...(await holders.liveLinks('share-1')).uplinks].sort()).toEqual(['SIM2', 'SIM3']);
  });

  it("rewrites its rows as the links it holds, in one transaction, leaving a live replica's and taking a dead one's", async () => {
    await holders.uplinksChanged(new Map([['SIM1', true]]));
    await new PostgresLinkHolders(routing, other).uplinksChanged(new Map([['SIM2', true]]));
    const dead = await replica('c');
    await new PostgresLinkHolders(routing, dead).uplinksChanged(new Map([['SIM3', true]]));
    await dead.leave();
    const allStored = await holders.rewrite({
      uplinks: new Set(['SIM2', 'SIM3', 'SIM4']),
      controls: new Map([['share-1', { instance: 'sim-1', epoch: 3 }]]),
    });
    expect(await uplinkHolders()).toEqual({ SIM2: 'b', SIM3: 'a', SIM4: 'a' });
    expect(await holders.liveShareHolder('share-1')).toEqual({ instance: 'sim-1', epoch: 3 });
    // SIM2 is stored as b's: not every link held here is stored as held here.
    expect(allStored).toBe(false);
  });

  it("says so while a live replica's stale row stands, and stores its own once that replica's rewrite removed it", async () => {
    // While the database was away the share's control link moved from b to this replica; neither could write it.
    const others = new PostgresLinkHolders(routing, other);
    await others.controlOpened('share-1', 'sim-1', 1);
    await others.uplinksChanged(new Map([['SIM1', true]]));
    const held = {
      uplinks: new Set(['SIM1']),
      controls: new Map([['share-1', { instance: 'sim-2', epoch: 1 }]]),
    };
    // This replica's repair comes first: b, alive, is still stored as holding both.
    expect(await holders.rewrite(held)).toBe(false);
    expect(await holders.liveShareHolder('share-1')).toEqual({ instance: 'sim-1', epoch: 1 });
    // b's repair: it holds nothing now, so its rows go.
    expect(await others.rewrite({ uplinks: new Set(), controls: new Map() })).toBe(true);
    expect(await holders.liveShareHolder('share-1')).toBeUndefined();
    // This replica's repair, asked again.
    expect(await holders.rewrite(held)).toBe(true);
    expect(await holders.liveShareHolder('share-1')).toEqual({ instance: 'sim-2', epoch: 1 });
    expect(await uplinkHolders()).toEqual({ SIM1: 'a' });
  });

  it('removes the routed requests left behind past their timeout and the grace, at most as many as asked', async () => {
    const request = (ageMs: number): Promise<number> =>
      sqlOf(routing.manager).run(
        `INSERT INTO routed_requests (id, replica_id, replica_epoch, link, serial_number, request, timeout_ms, state, created_at)
         VALUES (?, 'b', ?, 'uplink', 'SIM1', '{}', 1000, 'pending', now() - ? * interval '1 millisecond')`,
        [randomUUID(), other.epoch, ageMs],
      );
    for (const ageMs of [60_000, 60_000, 60_000, 100]) await request(ageMs);
    const leftBehind = new PostgresLeftBehindRequests(routing);
    expect(await leftBehind.remove(2000, 2)).toBe(2);
    expect(await leftBehind.remove(2000, 10)).toBe(1);
    expect(await leftBehind.remove(2000, 10)).toBe(0);
  });
});
