import 'reflect-metadata';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { LinkPeer, SERVICE_UPLINK_SIDE, type LinkEvent, type UplinkNotice } from '@tps/link';
import { buildEvent } from '../runtime/event-factory';
import { order, profile } from '../runtime/testing/runtime-harness';
import type { TerminalStore } from '../store/terminal-store';
import { NOTICE_WAIT_MAX_MS, NoticeWait } from './notice-wait';
import { REPLY_HOLD_MS, Uplink } from './uplink';
import type { ShareCredentials } from './share-membership';

const MERCHANT = 'demo-merchant';

/** An event as the terminal builds it (the service checks what it receives). */
function linkEvent(clientTransactionId: string, n: number): LinkEvent {
  const taken = { ...order('00'), merchantId: MERCHANT, clientTransactionId };
  const event = buildEvent(profile(), taken, null, 'TERMINAL_ACKNOWLEDGED', {}, new Date());
  return { event: { ...event, event_id: `${clientTransactionId}-${n}` } };
}

/** The terminal's queue of events for the service, in memory. */
class QueueStore {
  private seq = 0;
  readonly rows: Array<{ seq: number; link: LinkEvent; acked: boolean }> = [];
  readonly acknowledgedEvents: string[] = [];
  /** How many times the uplink read the queue. */
  reads = 0;

  add(link: LinkEvent): void {
    this.rows.push({ seq: ++this.seq, link, acked: false });
  }

  async pending(_serial: string, limit: number): Promise<Array<{ seq: number; link: LinkEvent }>> {
    this.reads++;
    return this.rows.filter((row) => !row.acked).slice(0, limit);
  }

  async acknowledge(seqs: number[]): Promise<void> {
    for (const row of this.rows) if (seqs.includes(row.seq)) row.acked = true;
  }

  async acknowledgeEvents(eventIds: string[]): Promise<void> {
    this.acknowledgedEvents.push(...eventIds);
    for (const row of this.rows) if (eventIds.includes(row.link.event.event_id)) row.acked = true;
  }
}

/** The service's end of a terminal's uplink, on 127.0.0.1: it stores every run it is sent. */
async function startService(): Promise<{
  url: string;
  runs: string[][];
  nextRun: () => Promise<string[]>;
  notify: (notice: UplinkNotice) => void;
  close: () => Promise<void>;
}> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const runs: string[][] = [];
  const waiting: Array<(run: string[]) => void> = [];
  let peer: LinkPeer | undefined;
  const connected = new Promise<void>((resolve) =>
    server.on('connection', (socket) => {
      peer = new LinkPeer(socket, {
        side: SERVICE_UPLINK_SIDE,
        onRequest: async (request) => {
          if (request.type !== 'events') return { acknowledged: request.report.printJobId };
          const run = request.links.map((link) => link.event.event_id);
          runs.push(run);
          waiting.shift()?.(run);
          return { stored: run.length };
        },
      });
      resolve();
    }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    nextRun: () => new Promise((resolve) => waiting.push(resolve)),
    notify: (notice) => {
      void connected.then(() => peer?.notify(notice));
    },
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

describe('Uplink: the events an operation answers with travel once', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let store: QueueStore;
  let uplink: Uplink;

  beforeEach(async () => {
    service = await startService();
    store = new QueueStore();
    uplink = new Uplink(
      'SIM1',
      {
        linkSecret: 'secret',
        reconnectMinMs: 50,
        credentials: () => ({ share: 'fleet', instance: 'test', epoch: 1, apiUrl: service.url }),
        noticeWait: new NoticeWait(REPLY_HOLD_MS, NOTICE_WAIT_MAX_MS),
      },
      store as unknown as TerminalStore,
      async () => ({}),
      () => undefined,
    );
    const up = new Promise<void>((resolve) => uplink.whenUp(resolve));
    uplink.open();
    await up;
  });

  afterEach(async () => {
    uplink.close();
    await service.close();
  });

  /** Runs an operation whose lifecycle records `count` events, as the runtime does. */
  const operate = (clientTransactionId: string, count: number): Promise<LinkEvent[]> =>
    uplink.carryInReply(MERCHANT, clientTransactionId, async () => {
      const links = Array.from({ length: count }, (_, n) => linkEvent(clientTransactionId, n));
      for (const link of links) {
        store.add(link);
        uplink.flush(`${MERCHANT}:${clientTransactionId}`, [link.event.event_id]);
      }
      return links;
    });

  /** The service's notice that it stored these events of one transaction. */
  const notifyStored = (clientTransactionId: string, links: LinkEvent[]): void =>
    service.notify({
      type: 'stored',
      merchantId: MERCHANT,
      clientTransactionId,
      eventIds: links.map((link) => link.event.event_id),
    });

  /** Resolves once the store has acknowledged `count` events from notices. */
  const acknowledged = async (count: number): Promise<void> => {
    while (store.acknowledgedEvents.length < count) await new Promise((resolve) => setImmediate(resolve));
  };

  it("holds a reply's events back until the service says it stored them, then acknowledges them", async () => {
    const reply = await operate('t1', 4);
    notifyStored('t1', reply);
    await acknowledged(4);
    // A later transaction's event goes up alone: nothing of t1 went before it, nor goes with it.
    const next = service.nextRun();
    store.add(linkEvent('t2', 0));
    uplink.flush('demo-merchant:t2');
    expect(await next).toEqual(['t2-0']);
    expect(service.runs).toEqual([['t2-0']]);
    expect(store.acknowledgedEvents).toEqual(['t1-0', 't1-1', 't1-2', 't1-3']);
  });

  it('a notice for every held event ends the hold without reading the queue', async () => {
    const reads = store.reads;
    const reply = await operate('t4', 3);
    notifyStored('t4', reply);
    await acknowledged(3);
    // What follows the acknowledgement (ending the hold, a read if it drained) runs in promise
    // callbacks of the in-memory store: all of them have run before the next pass of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.reads).toBe(reads);
    expect(service.runs).toEqual([]);
  });

  it('a notice that misses a held event sends that event up at once', async () => {
    const reply = await operate('t5', 3);
    const next = service.nextRun();
    notifyStored('t5', reply.slice(0, 2));
    expect(await next).toEqual(['t5-2']);
  });

  it('once the service has been slower to say so than the hold, a reply waits that long for its notice', async () => {
    const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    // The first reply's notice comes after its hold (300 ms): its events went up meanwhile.
    const first = await operate('t6', 2);
    const duplicate = service.nextRun();
    expect(await duplicate).toEqual(['t6-0', 't6-1']);
    await later(500 - 300);
    notifyStored('t6', first);
    await acknowledged(2);
    // The next one waits for its notice as long as the first took, and nothing goes up twice.
    const second = await operate('t7', 2);
    await later(500);
    notifyStored('t7', second);
    await acknowledged(4);
    expect(service.runs).toEqual([['t6-0', 't6-1']]);
  });

  it('an operation that fails sends what it recorded up the uplink at once', async () => {
    const next = service.nextRun();
    await expect(
      uplink.carryInReply(MERCHANT, 't3', async () => {
        store.add(linkEvent('t3', 0));
        uplink.flush(`${MERCHANT}:t3`);
        throw new Error('the reply could not be built');
      }),
    ).rejects.toThrow('could not be built');
    expect(await next).toEqual(['t3-0']);
  });
});

describe('Uplink: opens only while its process holds its fleet share', () => {
  it('asks again until the share is held, then links presenting share, instance and epoch', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const headers: Array<Record<string, unknown>> = [];
    server.on('connection', (_socket, request) => headers.push(request.headers));
    const { port } = server.address() as AddressInfo;
    let asked = 0;
    let held: ShareCredentials | undefined;
    let askedTwice: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (askedTwice = resolve));
    const uplink = new Uplink(
      'SIM1',
      {
        linkSecret: 'secret',
        reconnectMinMs: 10,
        credentials: () => {
          if (++asked === 2) askedTwice();
          return held;
        },
        noticeWait: new NoticeWait(REPLY_HOLD_MS, NOTICE_WAIT_MAX_MS),
      },
      new QueueStore() as unknown as TerminalStore,
      async () => ({}),
      () => undefined,
    );
    try {
      uplink.open();
      // Asked twice: the first time found no share and opened nothing, so it asked again.
      await twice;
      expect(headers).toEqual([]);
      held = { share: 'fleet', instance: 'abc123', epoch: 3, apiUrl: `http://127.0.0.1:${port}` };
      await new Promise<void>((resolve) => uplink.whenUp(resolve));
      expect(headers[0]).toMatchObject({
        'x-terminal-serial': 'SIM1',
        'x-link-share': 'fleet',
        'x-link-instance': 'abc123',
        'x-link-epoch': '3',
      });
    } finally {
      uplink.close();
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
