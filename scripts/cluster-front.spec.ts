import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClusterFront, replicaFor, terminalOf } from './cluster-front';

function serials(count: number): string[] {
  return Array.from({ length: count }, (_, n) => `SIM${String(n).padStart(7, '0')}`);
}

/** A stand-in replica: answers every request with `status` and `body`, counting them. */
async function replica(
  status: number,
  body: object,
): Promise<{ server: Server; port: number; asked: number }> {
  const stand = { server: createServer(), port: 0, asked: 0 };
  stand.server.on('request', (request, response) => {
    stand.asked += 1;
    request.resume();
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((listening) => stand.server.listen(0, '127.0.0.1', listening));
  stand.port = (stand.server.address() as AddressInfo).port;
  return stand;
}

describe('the cluster front', () => {
  it('reads the terminal of a Cloud-form request, its sandbox controls and its uplink, as the compose balancer does', () => {
    expect(terminalOf('/terminal/v1/SIM0000001/sync/charge', {})).toBe('SIM0000001');
    expect(terminalOf('/terminal/v1/SIM0000001/print/abc?x=1', {})).toBe('SIM0000001');
    expect(terminalOf('/sandbox/terminals/SIM0000002/offline', {})).toBe('SIM0000002');
    expect(terminalOf('/link/terminal', { 'x-terminal-serial': 'SIM0000003' })).toBe('SIM0000003');
    expect(terminalOf('/terminal/v1/sync/charge', {})).toBeUndefined();
    expect(terminalOf('/sandbox/clock', {})).toBeUndefined();
  });

  it('sends each serial to one replica, and moves only the serials of a replica that leaves', () => {
    const all = [3001, 3002, 3003];
    const before = new Map(serials(300).map((serial) => [serial, replicaFor(serial, all)]));
    const counts = [...before.values()].reduce(
      (map, port) => map.set(port, (map.get(port) ?? 0) + 1),
      new Map(),
    );
    for (const port of all) expect(counts.get(port)).toBeGreaterThan(60);
    const without = [3001, 3003];
    const moved = [...before].filter(([serial, port]) => replicaFor(serial, without) !== port);
    expect(moved.every(([, port]) => port === 3002)).toBe(true);
    expect(moved).toHaveLength(counts.get(3002));
  });

  it("sends a request the service's own 503 refused (nothing taken) to another replica", async () => {
    const draining = await replica(503, { code: 'INT-002' });
    const serving = await replica(200, { ok: true });
    const front = new ClusterFront([draining.port, serving.port]);
    await new Promise<void>((listening) => front.listen(0, listening));
    try {
      const url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => fetch(`${url}/sandbox/clock`).then((r) => r.status)),
      );
      expect(answers).toEqual([200, 200, 200, 200]);
      expect(draining.asked).toBeGreaterThan(0);
    } finally {
      front.close();
      draining.server.close();
      serving.server.close();
    }
  });

  it('answers 503 INT-002 itself when no replica takes the connection', async () => {
    const gone = await replica(200, {});
    const port = gone.port;
    await new Promise((closed) => gone.server.close(closed));
    const front = new ClusterFront([port]);
    await new Promise<void>((listening) => front.listen(0, listening));
    try {
      const url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
      const answer = await fetch(`${url}/sandbox/clock`, { headers: { 'request-id': 'front-1' } });
      expect([answer.status, answer.headers.get('retry-after'), await answer.json()]).toEqual([
        503,
        '1',
        { type: 'INTERNAL', code: 'INT-002', message: expect.any(String), request_id: 'front-1' },
      ]);
    } finally {
      front.close();
    }
  });
});
