import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPO_ROOT,
  Stack,
  WebhookReceiver,
  entriesOfRecords,
  keyOf,
  readSnapshots,
  writeSnapshots,
  type SnapshotEntry,
  type StoreKind,
} from '@tps/testing';
import { sandboxFlows } from './sql-flows';
import { describeOnStores } from './stores';

/** Where the snapshots live (docs/queries/README.md). */
const SNAPSHOTS = process.env.SQL_SNAPSHOTS_DIR ?? join(REPO_ROOT, 'docs/queries');
/** Set, the run writes the snapshots afresh instead of comparing with them. */
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
/**
 * A rewrite keeps what several runs of the flows sent, on a fresh stack each: a few statements
 * are sent only when timing has it so (a write that met another and ran again), and a snapshot
 * without them would fail a later run that sends them.
 */
const RUNS = UPDATE ? Number(process.env.SQL_SNAPSHOT_RUNS ?? 3) : 1;
/** The webhook and print callback leases: renewed every third of it. */
const LEASE_MS = 1500;
/**
 * How long the receiver holds a print callback: three renewal periods, so that one falls in it on
 * a loaded machine too.
 */
const CALLBACK_ANSWER_MS = 1500;

const shown = (entry: SnapshotEntry): string => `  from ${entry.source}:\n    ${entry.text}`;

/** What the apps sent while they ran the flows once, on a fresh stack of `store`. */
async function recordFlows(store: StoreKind, dir: string): Promise<SnapshotEntry[]> {
  // The first webhook to /retried fails: it is retried. A print callback is answered late.
  let failed = false;
  const receiver = await WebhookReceiver.start((request, _n, response) => {
    const fail = request.path === '/retried' && !failed;
    if (fail) failed = true;
    response.statusCode = fail ? 500 : 200;
    setTimeout(() => response.end(), request.path === '/print' ? CALLBACK_ANSWER_MS : 0);
  });
  const files = { api: join(dir, 'api.jsonl'), terminal: join(dir, 'terminal.jsonl') };
  rmSync(files.api, { force: true });
  rmSync(files.terminal, { force: true });
  const stack = await Stack.start({
    store,
    apiEnv: {
      SQL_STATEMENTS_FILE: files.api,
      WEBHOOK_RETRY_SCALE: '0.001',
      // Renewed every 500 ms: every run renews the delivery leases, whatever its length, and
      // the print callback's while the receiver holds it.
      DELIVERY_LEASE_MS: String(LEASE_MS),
    },
    simulatorEnv: { SQL_STATEMENTS_FILE: files.terminal },
  });
  try {
    await sandboxFlows(stack, receiver);
  } finally {
    // Stopped before the files are read: what the apps send as they stop is recorded too.
    await stack.stop();
    await receiver.close();
  }
  return entriesOfRecords([files.api, files.terminal]).get(store) ?? [];
}

/**
 * SQL you can review (docs/queries/README.md): the apps run the sandbox's flows with their
 * statement recorder on (SQL_STATEMENTS_FILE), and every statement they send must be in the
 * checked-in snapshot of its dialect and source file. A statement of the snapshot that this run
 * did not send is reported, not failed: some are sent only when timing has it so.
 */
describeOnStores('SQL snapshots: every statement the apps send is in docs/queries', (store) => {
  let dir: string;
  let seen: SnapshotEntry[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-sql-snapshots-'));
    const all = new Map<string, SnapshotEntry>();
    for (let run = 0; run < RUNS; run++) {
      for (const entry of await recordFlows(store, dir)) all.set(keyOf(entry), entry);
    }
    seen = [...all.values()];
  }, RUNS * 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`sends no statement that docs/queries/${store} lacks`, () => {
    expect(seen.length).toBeGreaterThan(0);
    if (UPDATE) {
      writeSnapshots(SNAPSHOTS, store, seen);
      return;
    }
    const snapshot = readSnapshots(SNAPSHOTS, store);
    const known = new Set(snapshot.map(keyOf));
    const sent = new Set(seen.map(keyOf));
    const unsent = snapshot.filter((entry) => !sent.has(keyOf(entry)));
    if (unsent.length > 0) {
      // Not a failure: timing decides whether some are sent (a write that met another and ran again).
      console.log(
        `${unsent.length} statement(s) of docs/queries/${store} not sent in this run:\n${unsent.map(shown).join('\n')}`,
      );
    }
    const unknown = seen.filter((entry) => !known.has(keyOf(entry)));
    expect(
      unknown.length === 0
        ? 'none'
        : `${unknown.length} statement(s) not in docs/queries/${store} (review them, then run this test with ` +
            `UPDATE_SQL_SNAPSHOTS=1 and commit the files):\n${unknown.map(shown).join('\n')}`,
    ).toBe('none');
  });
});
