import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { ContractError } from '@tps/domain';
import {
  EVENTS_RECEIPT,
  LinkMessageRefused,
  LinkPeer,
  LinkUnavailableError,
  SERVICE_UPLINK_SIDE,
  TERMINAL_UPLINK_SIDE,
  type UplinkNotice,
  type UplinkRequest,
} from './index';
import { exampleLinkEvent } from './testing/link-examples';

const stored: UplinkNotice = {
  type: 'stored',
  merchantId: 'demo-merchant',
  clientTransactionId: 'c1',
  eventIds: ['e1'],
};

/**
 * Both ends of a terminal's uplink over a real WebSocket on 127.0.0.1: the service's end answers
 * event runs (or what `answer` says), the terminal's end reads notices.
 */
async function link(answer?: (request: UplinkRequest) => unknown) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const serviceLog: unknown[] = [];
  const terminalLog: unknown[] = [];
  const requests: UplinkRequest[] = [];
  const notices: UplinkNotice[] = [];
  const accepted = new Promise<LinkPeer>((resolve) =>
    server.once('connection', (socket) =>
      resolve(
        new LinkPeer(
          socket,
          {
            side: SERVICE_UPLINK_SIDE,
            onRequest: async (request) => {
              requests.push(request);
              if (answer !== undefined) return answer(request);
              return { stored: request.type === 'events' ? request.links.length : 0 };
            },
          },
          (error) => serviceLog.push(error),
        ),
      ),
    ),
  );
  const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await once(socket, 'open');
  let onNotice = (notice: UplinkNotice): void => void notices.push(notice);
  const terminal = new LinkPeer(
    socket,
    {
      side: TERMINAL_UPLINK_SIDE,
      onRequest: () => Promise.resolve(undefined),
      onNotice: (notice) => onNotice(notice),
    },
    (error) => terminalLog.push(error),
  );
  const service = await accepted;
  /** What the service's end sends back to raw frames, in order. */
  const raw: unknown[] = [];
  socket.on('message', (data: Buffer) => raw.push(JSON.parse(data.toString('utf8'))));
  return {
    service,
    terminal,
    socket,
    requests,
    notices,
    serviceLog,
    terminalLog,
    raw,
    throwOnNotice: () => {
      onNotice = () => {
        throw new Error('handler failed');
      };
    },
    close: async () => {
      terminal.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('LinkPeer checks what it receives', () => {
  let ends: Awaited<ReturnType<typeof link>>;

  afterEach(async () => ends.close());

  it('answers a request that fails its schema with the contract error body, then serves the next one', async () => {
    ends = await link();
    const malformed = { type: 'events', links: [{ event: { ...exampleLinkEvent().event, status: 42 } }] };
    const refusal = ends.terminal.request(malformed, 1000, EVENTS_RECEIPT);
    await expect(refusal).rejects.toEqual(
      new ContractError(
        'PAR-002',
        'uplink request: links[0].event.status: expected union value',
        'links[0].event.status',
      ),
    );
    await expect(refusal).rejects.toMatchObject({ code: 'PAR-002', param: 'links[0].event.status' });
    expect(ends.requests).toEqual([]);
    expect(ends.serviceLog).toEqual([expect.any(LinkMessageRefused)]);

    const good = { type: 'events', links: [exampleLinkEvent()] };
    await expect(ends.terminal.request(good, 1000, EVENTS_RECEIPT)).resolves.toEqual({ stored: 1 });
    expect(ends.requests).toEqual([good]);
  });

  it('drops a field it does not know and serves the rest (a newer end in a rolling deploy)', async () => {
    ends = await link();
    const newer = { type: 'events', links: [exampleLinkEvent()], body: { type: 'events' } };
    await expect(ends.terminal.request(newer, 1000, EVENTS_RECEIPT)).resolves.toEqual({ stored: 1 });
    expect(ends.requests).toEqual([{ type: 'events', links: [exampleLinkEvent()] }]);
  });

  it('drops a frame that is not JSON or not a frame, answers one that names a request, and keeps serving', async () => {
    ends = await link();
    ends.socket.send('{"f":"req","id":1,');
    ends.socket.send(JSON.stringify([1, 2, 3]));
    ends.socket.send(JSON.stringify({ f: 'req', id: 7 }));
    await until(() => ends.raw.length === 1);
    expect(ends.raw).toEqual([
      {
        f: 'res',
        id: 7,
        ok: false,
        error: {
          type: 'PARAMETER',
          code: 'PAR-002',
          message: 'link frame: body: missing',
          param: 'body',
        },
      },
    ]);
    expect(ends.serviceLog.map(String)).toEqual([
      'LinkMessageRefused: link frame: not JSON',
      'LinkMessageRefused: link frame: the message: expected union value',
      'LinkMessageRefused: link frame: body: missing',
    ]);
    const good = { type: 'events', links: [exampleLinkEvent()] };
    await expect(ends.terminal.request(good, 1000, EVENTS_RECEIPT)).resolves.toEqual({ stored: 1 });
  });

  it('drops a notice that fails its schema with one line naming its kind and path, and reads the next', async () => {
    ends = await link();
    ends.service.notify({ ...stored, eventIds: [1] });
    ends.service.notify({ type: 'stored' });
    ends.service.notify(stored);
    await until(() => ends.notices.length === 1);
    expect(ends.notices).toEqual([stored]);
    expect(ends.terminalLog.map(String)).toEqual([
      'LinkMessageRefused: uplink notice: eventIds[0]: expected string',
      'LinkMessageRefused: uplink notice: merchantId: missing',
    ]);
  });

  it('logs a notice handler that throws, and the link goes on', async () => {
    ends = await link();
    ends.throwOnNotice();
    ends.service.notify(stored);
    await until(() => ends.terminalLog.length === 1);
    expect(String(ends.terminalLog[0])).toBe('Error: handler failed');
    const good = { type: 'events', links: [exampleLinkEvent()] };
    await expect(ends.terminal.request(good, 1000, EVENTS_RECEIPT)).resolves.toEqual({ stored: 1 });
  });

  it('fails a request whose reply fails its schema as unreadable, at once', async () => {
    ends = await link(() => ({ stored: '1' }));
    const request = ends.terminal.request({ type: 'events', links: [] }, 60_000, EVENTS_RECEIPT);
    await expect(request).rejects.toEqual(new LinkUnavailableError('unreadable'));
    expect(ends.terminalLog.map(String)).toEqual([
      'LinkMessageRefused: events receipt: stored: expected integer',
    ]);
  });
});
