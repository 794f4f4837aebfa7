import { join } from 'node:path';
import { Client } from 'pg';
import { AppProcess, LINK_SECRET, SIMULATOR_ENTRY, Stack, TEST_POSTGRES_URL, poll } from '@tps/testing';
import { INSPECT_LOOPBACK, collectedResidentMiB } from './lib/collected-resident';
import { CpuMeter } from './lib/cpu-meter';
import { PgBackends } from './lib/pg-backends';
import { PgCountingProxy } from './lib/pg-counting-proxy';
import { countsSince, type KindCounts } from './lib/pg-message-counter';
import { residentMiB } from './lib/resident-memory';
import { isWrite } from './lib/sql-kind';

export interface ReplicaAtScale {
  links: number;
  /** Resident memory before any link and with its links, MiB: as sampled, and after a full GC. */
  residentBeforeMiB: number;
  residentAfterMiB: number;
  collectedBeforeMiB: number;
  collectedAfterMiB: number;
  /** Idle, every terminal linked: CPU as % of one core, and statements per second by kind. */
  idleCpuPercent: number;
  idleStatementsPerSecond: KindCounts;
  idleWritesPerSecond: number;
  /** Writes per second of the same replica idle before any terminal linked. */
  unlinkedWritesPerSecond: number;
}

export interface ShardAtScale {
  share: string;
  hosted: number;
  residentMiB: number;
  idleCpuPercent: number;
}

export interface FleetAtScale {
  /** Terminals added to the fleet (the seed's three come on top). */
  terminals: number;
  /** Uplinks open over both replicas once linking stopped growing or was complete. */
  linked: number;
  expected: number;
  linkSeconds: number;
  /** Until the stored holders (what the other replicas route by) count every link too. */
  storedSeconds: number;
  idleSeconds: number;
  replicas: ReplicaAtScale[];
  shards: ShardAtScale[];
  postgresIdleCpuPercent: number;
  kill: {
    replica: number;
    linksHeld: number;
    /** Links over both replicas just before: what must come back. */
    linkedBefore: number;
    /** From the SIGKILL until the survivor holds every uplink (its own count), and until the stored holders say so. */
    relinkedMs: number | null;
    storedMs: number | null;
  };
}

const SHARES = ['shard-1', 'shard-2'];
const START_TIMEOUT_MS = 90_000;
const RELINK_TIMEOUT_MS = 90_000;

const writesIn = (perSecond: KindCounts): number =>
  Object.entries(perSecond).reduce((sum, [kind, rate]) => sum + (isWrite(kind) ? rate : 0), 0);

/** What each proxy's app ran for `seconds` with nothing asked of it, per second by kind. */
async function idleKinds(proxies: PgCountingProxy[], seconds: number): Promise<KindCounts[]> {
  const before = proxies.map((proxy) => proxy.kinds());
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return proxies.map((proxy, n) => {
    const perSecond: KindCounts = {};
    for (const [kind, count] of Object.entries(countsSince(before[n], proxy.kinds())))
      if (count !== 0) perSecond[kind] = count / seconds;
    return perSecond;
  });
}

/**
 * Adds `count` terminals of the demo merchant to the API's database directly, as the merchant
 * CLI does while the service runs, each a copy of a seeded one but for its serial and MAC
 * (columns the schema gains later are copied as they are).
 */
async function addTerminals(client: Client, count: number): Promise<void> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'terminals' ORDER BY ordinal_position`,
  );
  const overrides: Record<string, string> = {
    serial_number: `'SIM' || lpad((5000000 + g)::text, 7, '0')`,
    wifi_mac: `'02:BE:' || lpad(to_hex(g), 8, '0')`,
    pace: `'instant'`,
  };
  const columns = rows.map((row) => row.column_name);
  await client.query(
    `INSERT INTO terminals (${columns.map((c) => `"${c}"`).join(', ')})
     SELECT ${columns.map((c) => overrides[c] ?? `t."${c}"`).join(', ')}
     FROM generate_series(1, ${count}) g, (SELECT * FROM terminals WHERE serial_number = 'SIM0000001') t`,
  );
}

async function linkedOn(url: string): Promise<number> {
  const health = (await (await fetch(`${url}/health`)).json()) as { linked_terminals: number };
  return health.linked_terminals;
}

interface SimulatorHealth {
  hosted_terminals: number;
}

/**
 * A large fleet over two replicas and two simulator shards, each shard's control link (and so
 * its terminals' uplinks) on a replica of its own: how long linking takes, each replica's memory
 * per link and idle CPU, what it sends to PostgreSQL while idle (counted on the wire), then the
 * replica with the second share SIGKILLed and the time until every terminal is linked again.
 */
export async function measureFleetAtScale(
  terminals: number,
  idleSeconds: number,
  linkTimeoutSeconds: number,
): Promise<FleetAtScale> {
  const server = new URL(TEST_POSTGRES_URL);
  const target = { host: server.hostname, port: Number(server.port || 5432) };
  const proxies = [await PgCountingProxy.start(target), await PgCountingProxy.start(target)];
  const shards: AppProcess[] = [];
  let stack: Stack | undefined;
  let db: Client | undefined;
  try {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      withoutSimulator: true,
      nodeArgs: [INSPECT_LOOPBACK],
      startTimeoutMs: START_TIMEOUT_MS,
      apiEnv: { FLEET_SHARES: String(SHARES.length) },
      routeDatabase: (_app, url, replica) => proxies[replica ?? 0].route(url),
    });
    const replicas = stack.replicas;
    db = new Client({ connectionString: await stack.store.url('api') });
    await db.connect();
    await addTerminals(db, terminals);
    const expected = Number(
      (await db.query<{ n: string }>('SELECT COUNT(*) AS n FROM terminals WHERE NOT offline')).rows[0].n,
    );
    const before = await Promise.all(
      replicas.map(async (replica) => ({
        resident: residentMiB(replica.pid ?? 0),
        collected: await collectedResidentMiB(replica),
      })),
    );
    // What each replica writes with no link at all: the baseline that links must not raise.
    const unlinkedKinds = await idleKinds(proxies, idleSeconds / 3);

    const linkStarted = Date.now();
    for (const [n, share] of SHARES.entries()) {
      // Each shard tries its own replica first: its control link, and every uplink, land there.
      const order = [replicas[n], replicas[1 - n]].map((replica) => replica.url).join(',');
      shards.push(
        await AppProcess.start(
          `terminal-simulator-${share}`,
          SIMULATOR_ENTRY,
          {
            PORT: '0',
            HOST: '127.0.0.1',
            API_URL: order,
            DATABASE_URL: `sqlite:${join(stack.dir, `terminal-${share}.sqlite`)}`,
            LINK_SECRET,
            FLEET_SHARE: share,
          },
          // Started while the other shard links its thousands of terminals: a loaded machine is slow.
          { timeoutMs: START_TIMEOUT_MS },
        ),
      );
    }
    const total = async (): Promise<number> =>
      (await Promise.all(replicas.map((replica) => linkedOn(replica.url)))).reduce((a, b) => a + b, 0);
    const deadline = linkStarted + linkTimeoutSeconds * 1000;
    const linked = await poll(
      `${expected} terminals linked`,
      async () => ((await total()) >= expected ? expected : undefined),
      deadline - Date.now(),
    ).catch(() => total());
    const linkSeconds = (Date.now() - linkStarted) / 1000;
    // Linked for the other replicas too once each holder is stored (what routing reads).
    const database = db;
    const storedCount = async (except: string): Promise<number> => {
      const { rows } = await database.query<{ n: string }>(
        'SELECT COUNT(*) AS n FROM terminal_uplinks WHERE replica_id NOT LIKE $1',
        [except],
      );
      return Number(rows[0].n);
    };
    await poll(
      'every holder stored',
      async () => ((await storedCount('')) >= linked ? true : undefined),
      Math.max(1000, deadline - Date.now()),
    ).catch(() => undefined);
    const storedSeconds = (Date.now() - linkStarted) / 1000;
    // The links' first messages (print reports, the fleet sync) settle before the samples.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const links = await Promise.all(replicas.map((replica) => linkedOn(replica.url)));
    const after = await Promise.all(
      replicas.map(async (replica) => ({
        resident: residentMiB(replica.pid ?? 0),
        collected: await collectedResidentMiB(replica),
      })),
    );

    const backends = await PgBackends.open(TEST_POSTGRES_URL, [await stack.store.url('api')]);
    const fixed: Record<string, number | undefined> = {};
    for (const [n, replica] of replicas.entries()) fixed[`api${n}`] = replica.pid;
    for (const [n, shard] of shards.entries()) fixed[`shard${n}`] = shard.pid;
    const meter = await CpuMeter.start(fixed, { postgres: () => backends.pids() });
    const idleStart = await meter.reading();
    const linkedKinds = await idleKinds(proxies, idleSeconds);
    const idleEnd = await meter.reading();
    meter.stop();
    await backends.close();
    const percent = (group: string): number =>
      ((idleEnd[group] - idleStart[group]) / (idleSeconds * 1000)) * 100;
    const hosted = await Promise.all(
      shards.map(
        async (shard) =>
          ((await (await fetch(`${shard.url}/health`)).json()) as SimulatorHealth).hosted_terminals,
      ),
    );

    // The replica that holds more links dies; its terminals link to the other one.
    const victim = links[1] >= links[0] ? 1 : 0;
    const survivor = replicas[1 - victim];
    const dead = `%-${replicas[victim].pid}`;
    const linkedBefore = links[0] + links[1];
    const killedAt = Date.now();
    await replicas[victim].kill();
    const relinkedMs = await poll(
      'every terminal linked to the survivor',
      async () => ((await linkedOn(survivor.url)) >= linkedBefore ? Date.now() - killedAt : undefined),
      RELINK_TIMEOUT_MS,
    ).catch(() => null);
    const storedMs = await poll(
      'every stored holder alive',
      async () => ((await storedCount(dead)) >= linkedBefore ? Date.now() - killedAt : undefined),
      Math.max(1000, RELINK_TIMEOUT_MS - (Date.now() - killedAt)),
    ).catch(() => null);

    return {
      terminals,
      linked,
      expected,
      linkSeconds,
      storedSeconds,
      idleSeconds,
      replicas: replicas.map((_, n) => ({
        links: links[n],
        residentBeforeMiB: before[n].resident,
        residentAfterMiB: after[n].resident,
        collectedBeforeMiB: before[n].collected,
        collectedAfterMiB: after[n].collected,
        idleCpuPercent: percent(`api${n}`),
        idleStatementsPerSecond: linkedKinds[n],
        idleWritesPerSecond: writesIn(linkedKinds[n]),
        unlinkedWritesPerSecond: writesIn(unlinkedKinds[n]),
      })),
      shards: shards.map((shard, n) => ({
        share: SHARES[n],
        hosted: hosted[n],
        residentMiB: residentMiB(shard.pid ?? 0),
        idleCpuPercent: percent(`shard${n}`),
      })),
      postgresIdleCpuPercent: percent('postgres'),
      kill: { replica: victim, linksHeld: links[victim], linkedBefore, relinkedMs, storedMs },
    };
  } finally {
    await db?.end().catch(() => undefined);
    for (const shard of shards) await shard.stop();
    await stack?.stop();
    for (const proxy of proxies) await proxy.close();
  }
}
