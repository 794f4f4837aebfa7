import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocketServer, type WebSocket } from 'ws';
import { ContractError } from '@tps/domain';
import {
  CONTROL_PATH,
  LINK_SERIAL_HEADER,
  LINK_TOKEN_HEADER,
  LinkPeer,
  UPLINK_PATH,
  type EventsReceipt,
  type UplinkRequest,
} from '@tps/link';
import { ApiConfig } from '../config/api-config';
import { PrintReportIngest } from '../print-jobs/print-report-ingest';
import { TerminalRepository } from '../terminals/terminal.repository';
import { EventIngest } from '../transactions/event-ingest';
import type { TerminalIdentity } from '../transactions/transaction.repository';
import { TerminalLinks, terminalProfile } from './terminal-links';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Accepts the WebSocket links that terminals and the simulator open to the service. */
@Injectable()
export class LinkServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Links');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ApiConfig,
    private readonly links: TerminalLinks,
    private readonly terminals: TerminalRepository,
    private readonly ingest: EventIngest,
    private readonly printReports: PrintReportIngest,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.upgrade(request, socket, head).catch((error: unknown) => {
        this.logger.error(`link upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    });
  }

  onApplicationShutdown(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    const token = request.headers[LINK_TOKEN_HEADER];
    if (typeof token !== 'string' || !sameSecret(token, this.config.LINK_SECRET)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    if (path === CONTROL_PATH) {
      this.wss.handleUpgrade(request, socket, head, (ws) => void this.acceptControl(ws));
      return;
    }
    const serial = request.headers[LINK_SERIAL_HEADER];
    const terminal = typeof serial === 'string' ? await this.terminals.findBySerial(serial) : null;
    if (path !== UPLINK_PATH || terminal === null || terminal.offline) {
      socket.end(`HTTP/1.1 ${terminal?.offline ? 409 : 404} Refused\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.acceptUplink(terminal, ws));
  }

  private acceptUplink(terminal: TerminalIdentity, ws: WebSocket): void {
    const serial = terminal.serialNumber;
    const peer: LinkPeer = new LinkPeer(
      ws,
      {
        ordered: true,
        onRequest: (body) => this.onUplinkRequest(terminal, body as UplinkRequest),
        onClose: () => this.links.detachUplink(serial, peer),
      },
      (error) => this.logger.warn(`uplink ${serial}: ${String(error)}`),
    );
    this.links.attachUplink(serial, peer);
  }

  private async onUplinkRequest(terminal: TerminalIdentity, request: UplinkRequest): Promise<unknown> {
    const serial = terminal.serialNumber;
    switch (request.type) {
      case 'events': {
        const receipt: EventsReceipt = { stored: await this.ingest.ingestRun(terminal, request.links) };
        return receipt;
      }
      case 'print':
        await this.printReports.ingest(serial, request.report);
        return { acknowledged: request.report.printJobId };
      default: {
        const unknownRequest: never = request;
        throw new ContractError('PAR-001', `unknown uplink request ${JSON.stringify(unknownRequest)}`);
      }
    }
  }

  private async acceptControl(ws: WebSocket): Promise<void> {
    const peer: LinkPeer = new LinkPeer(
      ws,
      {
        onRequest: () =>
          Promise.reject(new ContractError('PAR-001', 'the service takes no control requests')),
        onClose: () => this.links.detachControl(peer),
      },
      (error) => this.logger.warn(`control link: ${String(error)}`),
    );
    this.links.attachControl(peer);
    const fleet = await this.terminals.listAll();
    peer.notify({ type: 'fleet', terminals: fleet.map(terminalProfile) });
  }
}
