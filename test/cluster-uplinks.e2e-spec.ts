import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import {
  EVENTS_RECEIPT,
  LINK_EPOCH_HEADER,
  LINK_INSTANCE_HEADER,
  LinkPeer,
  NOT_HOLDER_CLOSE_CODE,
  TERMINAL_UPLINK_SIDE,
  UPLINK_PATH,
} from '@tps/link';
import { poll, ShareHolder, SignedClient, type AppProcess } from '@tps/testing';
import { Replicas } from './cluster-replicas';
import { amountOf, ensureDaytime } from './payment-helpers';

const SERIAL = 'SIM0000002';

interface Uplink {
  socket: WebSocket;
  peer: LinkPeer;
  /** What the service asked of the terminal over this uplink. */
  asked: unknown[];
  /** The close code, once the service closed the link. */
  closed: Promise<number>;
}

/** A terminal's uplink to `api`, spoken by the test with `headers`. */
async function uplinkTo(api: AppProcess, headers: Record<string, string>): Promise<Uplink> {
  const socket = new WebSocket(`ws://127.0.0.1:${api.port}${UPLINK_PATH}`, { headers });
  const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const asked: unknown[] = [];
  const peer = new LinkPeer(socket, {
    side: TERMINAL_UPLINK_SIDE,
    onRequest: (request) => {
      asked.push(request);
      return Promise.resolve(undefined);
    },
  });
  return { socket, peer, asked, closed };
}

/** The replica stored as holding the terminal's uplink: its process id (replica ids end with it). */
async function storedUplinkHolder(replicas: Replicas, serial: string): Promise<string | undefined> {
  const rows = await replicas.store.rows<{ replica_id: string }>(
    'api',
    'SELECT replica_id FROM terminal_uplinks WHERE serial_number = ?',
    [serial],
  );
  return rows[0]?.replica_id.split('-').at(-1);
}

/**
 * Several replicas on one PostgreSQL database (contract, "Several replicas on one PostgreSQL
 * database"): a terminal's uplink is taken by any replica while its share's holder is linked to
 * some live replica, not only by the one that granted the share; a stale instance or epoch is
 * refused on every replica.
 */
describe('an uplink reaching a replica that did not grant its share [postgres]', () => {
  const replicas = new Replicas();
  let granting: AppProcess;
  let other: AppProcess;
  let holder: ShareHolder;
  const open: Uplink[] = [];

  beforeAll(async () => {
    [granting, other] = await replicas.start(2);
    holder = await ShareHolder.link(granting.port);
    await poll(
      'the share stored as held',
      async () =>
        (await replicas.store.rows('api', 'SELECT share FROM share_holders')).length === 1 ? true : undefined,
      5_000,
    );
  }, 60_000);

  afterAll(async () => {
    for (const uplink of open) uplink.socket.close();
    holder?.close();
    await replicas.stop();
  });

  it('is taken, stored as that replica’s, carries the terminal’s events, and is reached from the granting replica', async () => {
    const uplink = await uplinkTo(other, holder.uplinkHeaders(SERIAL));
    open.push(uplink);
    await poll(
      'the uplink stored as held by the other replica',
      async () => ((await storedUplinkHolder(replicas, SERIAL)) === String(other.pid) ? true : undefined),
      5_000,
    );
    expect(await uplink.peer.request({ type: 'events', links: [] }, 5_000, EVENTS_RECEIPT)).toEqual({
      stored: 0,
    });
    // A Cloud-form charge asked of the granting replica travels to the uplink the other one holds.
    const client = new SignedClient(granting.url);
    await ensureDaytime(client);
    await client.post(`/terminal/v1/${SERIAL}/sync/charge`, {
      amount: amountOf(10_000),
      client_transaction_id: randomUUID(),
    });
    expect(uplink.asked.length).toBeGreaterThan(0);
    const list = await new SignedClient(granting.url).get<Array<{ serialNumber: string; link: string }>>(
      '/sandbox/terminals',
    );
    expect(list.body.find((terminal) => terminal.serialNumber === SERIAL)?.link).toBe('up');
  }, 30_000);

  it('refuses, on the replica that did not grant the share, an uplink of another instance or epoch', async () => {
    const stale = [
      { ...holder.uplinkHeaders('SIM0000001'), [LINK_EPOCH_HEADER]: String(holder.epoch + 1) },
      { ...holder.uplinkHeaders('SIM0000001'), [LINK_INSTANCE_HEADER]: 'not-the-holder' },
    ];
    for (const headers of stale) {
      const uplink = await uplinkTo(other, headers);
      open.push(uplink);
      expect(await uplink.closed).toBe(NOT_HOLDER_CLOSE_CODE);
    }
  }, 30_000);
});
