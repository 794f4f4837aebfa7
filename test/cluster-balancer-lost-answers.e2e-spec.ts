import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HaproxyBalancer, poll } from '@tps/testing';

/**
 * What the compose profile's balancer (deploy/haproxy-cluster.cfg) answers itself when a replica
 * took a request and its answer never came whole: 502 INT-005 when the replica went away before
 * its answer's headers were complete, 504 INT-006 when it said nothing within `timeout server`
 * (120 s in the file, 2 s here). Either is "unknown": ask again with the same
 * client_transaction_id (contract §13). The replica is a stand-in that answers its /health, so
 * that the balancer keeps it in its rotation, and misbehaves as each request's `x-drill` asks.
 */
const CHARGE = '/terminal/v1/SIM0000002/sync/charge';

function standInReplica(): Server {
  return createServer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
    } else if (request.headers['x-drill'] === 'go-away') {
      // The status line and half a header, then the connection closed under it.
      request.socket.write('HTTP/1.1 200 OK\r\nContent-Le');
      request.socket.destroy();
    }
    // Else never answers.
  });
}

describe("the balancer's own answers to an answer lost on its way", () => {
  let dir: string;
  let replica: Server;
  let balancer: HaproxyBalancer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-balancer-lost-'));
    replica = standInReplica();
    await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
    const port = (replica.address() as AddressInfo).port;
    balancer = await HaproxyBalancer.start(dir, [port, port], 'sandbox', { timeoutServer: '2s' });
    await balancer.waitFor('api-1', 'UP');
    await balancer.waitFor('api-2', 'UP');
  }, 30_000);

  afterAll(async () => {
    await balancer?.stop();
    replica?.closeAllConnections();
    await new Promise((resolve) => replica?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const logLineOf = (id: string): string | undefined =>
    balancer.log.split('\n').find((line) => line.endsWith(`request_id=${id}`));

  it.each([
    { drill: 'go-away', status: 502, code: 'INT-005' },
    { drill: 'silence', status: 504, code: 'INT-006' },
  ])(
    "answers a replica's $drill with the contract's $status $code and the caller's Request-Id, and logs it",
    async ({ drill, status, code }) => {
      const id = `${drill}-1`;
      const answer = await fetch(`${balancer.url}${CHARGE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'request-id': id, 'x-drill': drill },
        body: '{}',
      });
      expect({
        status: answer.status,
        contentType: answer.headers.get('content-type'),
        requestId: answer.headers.get('request-id'),
        body: await answer.json(),
      }).toEqual({
        status,
        contentType: 'application/json',
        requestId: id,
        body: { type: 'INTERNAL', code, message: expect.any(String), request_id: id },
      });
      await poll(
        'the log line',
        async () => (logLineOf(id)?.includes(` ${status} `) ? true : undefined),
        5000,
      );
    },
    15_000,
  );
});
