import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { ContractError } from '@tps/domain';
import {
  CONTROL_PATH,
  EVENTS_RECEIPT,
  FLEET_CHANGE,
  LINK_TOKEN_HEADER,
  LinkPeer,
  SERVICE_CONTROL_SIDE,
  TERMINAL_UPLINK_SIDE,
  UPLINK_PATH,
  type LinkEvent,
} from '@tps/link';
import {
  AppProcess,
  LINK_SECRET,
  ShareHolder,
  SIMULATOR_ENTRY,
  Stack,
  WebhookReceiver,
  poll,
  sqliteRows,
} from '@tps/testing';
import { approvedAsyncChargeEvents } from './payment-helpers';

type Envelope = LinkEvent['event'];

/** A WebSocket handshake the service refuses: its status, content type and body. */
async function handshake(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string | undefined; body: Record<string, unknown> }> {
  const sent = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    headers: {
      ...headers,
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': randomBytes(16).toString('base64'),
    },
  });
  sent.once('upgrade', (_response, socket) => socket.destroy());
  sent.end();
  const [response] = (await once(sent, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return {
    status: response.statusCode ?? 0,
    type: response.headers['content-type'],
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/**
 * Each end of a link checks every frame and message it receives against the message's schema: a
 * malformed request is answered with the contract's error body, a malformed notice is dropped with
 * one log line, and the link goes on serving the next good message.
 */
describe('the service refuses malformed messages on a terminal uplink, and the link goes on', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let holder: ShareHolder | undefined;
  let socket: WebSocket;
  let peer: LinkPeer;
  let events: Envelope[];

  const storedEvents = async (): Promise<number> => {
    const [row] = await sqliteRows<{ n: number }>(
      stack.apiDatabase,
      'SELECT COUNT(*) AS n FROM transaction_events',
    );
    return row.n;
  };
  const run = (links: unknown[]): Promise<unknown> =>
    peer.request({ type: 'events', links }, 5_000, EVENTS_RECEIPT);
  /** The events of the charge again: replays the service counts as taken (the next good message). */
  const goodRun = (): Promise<unknown> => run(events.map((event) => ({ event })));

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
    events = await approvedAsyncChargeEvents(stack, receiver);
    expect(events).toHaveLength(4);
    // Taken offline while its simulator is there to be told: its uplink is refused (below).
    const offline = await stack.client().post('/sandbox/terminals/SIM0000002/offline');
    if (offline.status !== 200) throw new Error(`SIM0000002 not taken offline: ${offline.status}`);
    // The real terminal goes away; this test holds the fleet share and speaks for SIM0000001.
    await stack.simulator?.stop();
    holder = await ShareHolder.link(stack.api.port);
    socket = new WebSocket(`ws://127.0.0.1:${stack.api.port}${UPLINK_PATH}`, {
      headers: holder.uplinkHeaders('SIM0000001'),
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    peer = new LinkPeer(socket, { side: TERMINAL_UPLINK_SIDE, onRequest: () => Promise.resolve(undefined) });
  });

  afterAll(async () => {
    socket?.close();
    holder?.close();
    await receiver?.close();
    await stack?.stop();
  });

  it('answers a run whose event fails its schema with PAR-002 naming the field, and stores nothing', async () => {
    const before = await storedEvents();
    const wrongType = { event: { ...events[0], event_id: randomUUID(), status: 'SETTLED' } };
    await expect(run([wrongType])).rejects.toMatchObject({ code: 'PAR-002', param: 'links[0].event.status' });
    const { operation: _dropped, ...lacking } = { ...events[0], event_id: randomUUID() };
    await expect(run([{ event: lacking }])).rejects.toMatchObject({
      code: 'PAR-002',
      param: 'links[0].event.operation',
    });
    const nested = { event: { event: { ...events[0], event_id: randomUUID() } } };
    await expect(run([nested])).rejects.toBeInstanceOf(ContractError);
    expect(await storedEvents()).toBe(before);
    await expect(goodRun()).resolves.toEqual({ stored: 4 });
  });

  it("takes a newer terminal's run: fields the service does not know are dropped, not refused", async () => {
    const newer = events.map((event) => ({ event: { ...event, region: 'mx' }, hop: 1 }));
    await expect(run(newer)).resolves.toEqual({ stored: 4 });
    const envelopes = await sqliteRows<{ envelope: string }>(
      stack.apiDatabase,
      'SELECT envelope FROM transaction_events',
    );
    expect(envelopes.filter((row) => row.envelope.includes('region'))).toEqual([]);
  });

  it('answers a request frame without a body, drops a frame that is not JSON, and serves the next run', async () => {
    const replies: unknown[] = [];
    const onMessage = (data: Buffer): void => void replies.push(JSON.parse(data.toString('utf8')));
    socket.on('message', onMessage);
    socket.send('{"f":"req","id":9001,');
    socket.send(JSON.stringify({ f: 'req', id: 9002 }));
    await poll('the refusal', async () => (replies.length > 0 ? true : undefined), 5_000);
    socket.off('message', onMessage);
    expect(replies).toEqual([
      {
        f: 'res',
        id: 9002,
        ok: false,
        error: { type: 'PARAMETER', code: 'PAR-002', message: 'link frame: body: missing', param: 'body' },
      },
    ]);
    await expect(goodRun()).resolves.toEqual({ stored: 4 });
  });

  it('refuses a handshake in the contract error body: token, naming headers, unknown and offline terminal', async () => {
    const headers = holder?.uplinkHeaders('SIM0000002') ?? {};
    const withoutToken = Object.fromEntries(
      Object.entries(headers).filter(([name]) => name !== LINK_TOKEN_HEADER),
    );
    const refused = [
      await handshake(stack.api.port, UPLINK_PATH, withoutToken),
      await handshake(stack.api.port, UPLINK_PATH, { ...headers, [LINK_TOKEN_HEADER]: 'not-the-token' }),
      await handshake(stack.api.port, CONTROL_PATH, { [LINK_TOKEN_HEADER]: headers[LINK_TOKEN_HEADER] }),
      await handshake(stack.api.port, UPLINK_PATH, holder?.uplinkHeaders('NOSUCH01') ?? {}),
    ];
    refused.push(await handshake(stack.api.port, UPLINK_PATH, headers));
    expect(refused.map((answer) => [answer.status, answer.type, answer.body.code])).toEqual([
      [401, 'application/json; charset=utf-8', 'AUTH-001'],
      [401, 'application/json; charset=utf-8', 'AUTH-001'],
      [400, 'application/json; charset=utf-8', 'PAR-002'],
      [404, 'application/json; charset=utf-8', 'NF-002'],
      [503, 'application/json; charset=utf-8', 'TER-001'],
    ]);
    expect(refused.every((answer) => typeof answer.body.message === 'string')).toBe(true);
  });

  it('drops a notice (the service takes none) with one log line naming it, and serves the next run', async () => {
    peer.notify({ type: 'stored', merchantId: 'demo-merchant', clientTransactionId: 'x', eventIds: [] });
    const line = await poll(
      'the log line',
      async () => stack.api.log.split('\n').find((l) => l.includes('uplink notice')),
      5_000,
    );
    expect(line).toContain(
      'uplink SIM0000001: LinkMessageRefused: uplink notice: the message: this end takes none',
    );
    await expect(goodRun()).resolves.toEqual({ stored: 4 });
    expect((await fetch(`${stack.apiUrl}/health`)).status).toBe(200);
  });
});

/** A stand-in for the service that the real simulator links to: it holds the other end of the control link. */
async function fakeService(): Promise<{ server: Server; url: string; control: Promise<LinkPeer> }> {
  const server = createServer((_request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const control = new Promise<LinkPeer>((resolve) => {
    server.on('upgrade', (request, stream, head) => {
      if (request.url !== CONTROL_PATH) {
        stream.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, stream, head, (ws) => {
        const peer = new LinkPeer(ws, {
          side: SERVICE_CONTROL_SIDE,
          onRequest: () => Promise.reject(new ContractError('PAR-001', 'no control requests')),
        });
        peer.notify({
          type: 'share',
          share: 'fleet',
          instance: String(request.headers['x-link-instance']),
          epoch: 1,
        });
        resolve(peer);
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, control };
}

describe('the simulator refuses malformed messages on its control link, and the link goes on', () => {
  let service: Awaited<ReturnType<typeof fakeService>>;
  let simulator: AppProcess;
  let control: LinkPeer;
  let dir: string;

  beforeAll(async () => {
    service = await fakeService();
    dir = mkdtempSync(join(tmpdir(), 'tps-link-'));
    simulator = await AppProcess.start('terminal-simulator', SIMULATOR_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      API_URL: service.url,
      DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}`,
      LINK_SECRET,
      RECONNECT_MIN_MS: '20',
    });
    control = await service.control;
  });

  afterAll(async () => {
    await simulator?.stop();
    service?.server.closeAllConnections();
    await new Promise((resolve) => service?.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a control request that fails its schema with PAR-002 naming the field, then the next one', async () => {
    const terminal = {
      serialNumber: 'SIM9',
      merchantId: 'demo-merchant',
      model: 'SIM-A920',
      wifiMac: '02:00:00:00:00:09',
      room: 'lab',
      pace: 'instant',
      printer: 'ok',
      offline: false,
    };
    const malformed = { type: 'host', terminal: { ...terminal, serialNumber: 7 } };
    await expect(control.request(malformed, 5_000, FLEET_CHANGE)).rejects.toMatchObject({
      code: 'PAR-002',
      param: 'terminal.serialNumber',
    });
    const unknownKind = { type: 'reboot', serials: [] };
    await expect(control.request(unknownKind, 5_000, FLEET_CHANGE)).rejects.toMatchObject({
      code: 'PAR-002',
      param: 'type',
    });
    await expect(control.request({ type: 'remove', serials: [] }, 5_000, FLEET_CHANGE)).resolves.toEqual({
      serials: [],
    });
  });

  it('drops a notice that fails its schema with one log line naming its kind and path, and reads the next', async () => {
    control.notify({ type: 'fleet', terminals: [{ serialNumber: 'SIM9', pace: 'warp' }] });
    const line = await poll(
      'the log line',
      async () => simulator.log.split('\n').find((l) => l.includes('control notice')),
      5_000,
    );
    expect(line).toContain('LinkMessageRefused: control notice: terminals[0].merchantId: missing');
    control.notify({ type: 'fleet', terminals: [] });
    await expect(control.request({ type: 'remove', serials: [] }, 5_000, FLEET_CHANGE)).resolves.toEqual({
      serials: [],
    });
    expect((await fetch(`${simulator.url}/health`)).ok).toBe(true);
  });
});
