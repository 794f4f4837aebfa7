import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PeriodicTask } from '@tps/background';
import { LISTEN_PATH } from '@tps/contracts';
import { ContractError } from '@tps/domain';
import { answerOnSocket } from '@tps/http';
import {
  CONTROL_PATH,
  INSTANCE_ID_PATTERN,
  LINK_EPOCH_HEADER,
  LINK_INSTANCE_HEADER,
  LINK_SERIAL_HEADER,
  LINK_SHARE_HEADER,
  LINK_TOKEN_HEADER,
  LinkPeer,
  NOT_HOLDER_CLOSE_CODE,
  SERVICE_CONTROL_SIDE,
  SERVICE_UPLINK_SIDE,
  SHARE_HELD_CLOSE_CODE,
  SHARE_ID_PATTERN,
  UNKNOWN_SHARE_CLOSE_CODE,
  UPLINK_PATH,
  closeReason,
  type EventsReceipt,
  type ShareNotice,
  type UplinkRequest,
} from '@tps/link';
import { BackgroundTasks } from '../metrics/background-tasks';
import { Capacity } from '../caps/capacity';
import { ApiConfig } from '../config/api-config';
import { LINK_ROUTING, type LinkRouting } from '../routing/link-routing';
import { PrintReportIngest } from '../print-jobs/print-report-ingest';
import { TerminalRepository } from '../terminals/terminal.repository';
import { EventIngest } from '../transactions/event-ingest';
import type { TerminalIdentity } from '../transactions/transaction.repository';
import { BatchedLookup } from './batched-lookup';
import { ShareHolding } from './share-holding';
import { ShareRegistry, type ShareGrant } from './share-registry';
import { TerminalLinks, terminalProfile, type UplinkOwner } from './terminal-links';
import { UplinkRebalance } from './uplink-rebalance';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A header's value when it is present once and matches `pattern`. */
function headerMatching(request: IncomingMessage, name: string, pattern: RegExp): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && pattern.test(value) ? value : undefined;
}

const EPOCH_PATTERN = /^[1-9][0-9]{0,14}$/;

/** What an uplink keeps of its terminal for as long as it is open: few bytes each, for a large fleet. */
interface UplinkTerminal extends TerminalIdentity {
  offline: boolean;
}

/** Accepts the WebSocket links that terminals and the simulator open to the service. */
@Injectable()
export class LinkServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Links');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly heartbeat: PeriodicTask;
  private readonly holding: ShareHolding;
  /** The terminals of the uplinks being opened, read together when many open at once. */
  private readonly uplinkTerminals: BatchedLookup<UplinkTerminal>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ApiConfig,
    private readonly links: TerminalLinks,
    private readonly terminals: TerminalRepository,
    private readonly ingest: EventIngest,
    private readonly printReports: PrintReportIngest,
    private readonly shares: ShareRegistry,
    private readonly rebalance: UplinkRebalance,
    private readonly capacity: Capacity,
    @Inject(LINK_ROUTING) routing: LinkRouting,
    tasks: BackgroundTasks,
  ) {
    this.heartbeat = tasks.every({
      name: 'link-heartbeat',
      everyMs: config.LINK_HEARTBEAT_MS,
      run: () => this.beat(),
    });
    this.holding = new ShareHolding(shares, routing, () => Date.now(), config.LINK_HEARTBEAT_MS);
    this.uplinkTerminals = new BatchedLookup(async (serials) => {
      const found = await terminals.findBySerials(serials);
      return new Map(
        found.map(({ serialNumber, merchantId, offline }) => [
          serialNumber,
          { serialNumber, merchantId, offline },
        ]),
      );
    });
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.upgrade(request, socket, head).catch((error: unknown) => {
        this.logger.error(`link upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    });
    this.heartbeat.start();
  }

  /** Closes the control links whose holder stopped answering, and pings the others. */
  private beat(): void {
    for (const grant of this.shares.lapsed()) {
      this.logger.warn(
        `share ${grant.share}: instance ${grant.instance} (epoch ${grant.epoch}) answers no heartbeat; closing its link`,
      );
      this.shares.release(grant);
      this.links.dropControl(grant);
    }
    this.links.pingControls();
  }

  /** Before the pools close: the links' closes write their holders' rows (stored-link-routing.ts). */
  async onModuleDestroy(): Promise<void> {
    await this.heartbeat.stop();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    // The sandbox's `listen` connections have their own server (contract §6.1).
    if (path === LISTEN_PATH && this.config.PROFILE === 'sandbox') return;
    // Node hands this handler every request with an Upgrade header, whatever its path (`curl
    // --http2` asks for h2c on GET /health): outside the links' paths it is refused in the
    // contract's body (§4), not as a link without its token.
    if (path !== CONTROL_PATH && path !== UPLINK_PATH) {
      answerOnSocket(
        socket,
        'PAR-001',
        'this route takes no Upgrade (only the links and listen are WebSockets): send the request without one',
      );
      return;
    }
    const token = request.headers[LINK_TOKEN_HEADER];
    if (typeof token !== 'string' || !sameSecret(token, this.config.LINK_SECRET)) {
      answerOnSocket(socket, 'AUTH-001', `a link needs the service's link token in ${LINK_TOKEN_HEADER}`);
      return;
    }
    // Every link names the share its simulator links for and the instance it is (docs/contract.md
    // §13 and "Links between the apps"); an uplink also names the epoch under which it holds it.
    const share = headerMatching(request, LINK_SHARE_HEADER, SHARE_ID_PATTERN);
    const instance = headerMatching(request, LINK_INSTANCE_HEADER, INSTANCE_ID_PATTERN);
    const epoch = headerMatching(request, LINK_EPOCH_HEADER, EPOCH_PATTERN);
    if (share === undefined || instance === undefined || (path === UPLINK_PATH && epoch === undefined)) {
      answerOnSocket(
        socket,
        'PAR-002',
        `a link names its share (${LINK_SHARE_HEADER}) and instance (${LINK_INSTANCE_HEADER}), an uplink also its epoch (${LINK_EPOCH_HEADER})`,
      );
      return;
    }
    if (path === CONTROL_PATH) {
      this.wss.handleUpgrade(request, socket, head, (ws) => void this.acceptControl(ws, share, instance));
      return;
    }
    // The global cap of links (contract §22): past it an uplink waits, and callers keep their room.
    if (!this.capacity.admitsLink(this.wss.clients.size)) {
      answerOnSocket(socket, 'CAP-003', 'the service holds as many links as its cap (links) allows', 60);
      return;
    }
    const serial = request.headers[LINK_SERIAL_HEADER];
    const terminal = typeof serial === 'string' ? await this.uplinkTerminals.get(serial) : undefined;
    if (terminal === undefined) {
      answerOnSocket(socket, 'NF-002', `no terminal ${String(serial).slice(0, 40)} to link`);
      return;
    }
    if (terminal.offline) {
      answerOnSocket(
        socket,
        'TER-001',
        `terminal ${terminal.serialNumber} is offline (sandbox): it takes no link`,
      );
      return;
    }
    const owner: UplinkOwner = { share, instance, epoch: Number(epoch) };
    const holder = await this.holdsTerminal(terminal.serialNumber, owner);
    this.wss.handleUpgrade(request, socket, head, (ws) => this.acceptUplink(terminal, ws, owner, holder));
  }

  /**
   * An uplink is taken only from the instance that holds the terminal's share, under its current
   * epoch, whichever replica granted it; what a stale one sends is refused and its link closed, so
   * it cannot displace the holder's.
   */
  private async holdsTerminal(serial: string, owner: UplinkOwner): Promise<boolean> {
    return (
      owner.share === this.links.shareOf(serial) &&
      (await this.holding.holds(owner.share, owner.instance, owner.epoch))
    );
  }

  private notHolder(serial: string, owner: UplinkOwner): string {
    return closeReason(
      `instance ${owner.instance} does not hold share ${this.links.shareOf(serial)} under epoch ${owner.epoch} (it linked for ${owner.share})`,
    );
  }

  private acceptUplink(terminal: TerminalIdentity, ws: WebSocket, owner: UplinkOwner, holder: boolean): void {
    const serial = terminal.serialNumber;
    if (!holder) {
      ws.close(NOT_HOLDER_CLOSE_CODE, this.notHolder(serial, owner));
      return;
    }
    const peer: LinkPeer = new LinkPeer(
      ws,
      {
        side: SERVICE_UPLINK_SIDE,
        ordered: true,
        onRequest: (request) => this.onUplinkRequest(terminal, owner, peer, request),
        onClose: () => this.links.detachUplink(serial, peer),
      },
      (error) => this.logger.warn(`uplink ${serial}: ${String(error)}`),
    );
    this.links.attachUplink(serial, peer, owner);
    this.rebalance.uplinkOpened(serial);
  }

  private async onUplinkRequest(
    terminal: TerminalIdentity,
    owner: UplinkOwner,
    peer: LinkPeer,
    request: UplinkRequest,
  ): Promise<unknown> {
    const serial = terminal.serialNumber;
    if (!(await this.holdsTerminal(serial, owner))) {
      // A stale instance: nothing it sends is taken, and it keeps what it sent to offer it again.
      const reason = this.notHolder(serial, owner);
      peer.close(NOT_HOLDER_CLOSE_CODE, reason);
      throw new ContractError('TER-001', reason);
    }
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

  /**
   * A simulator's control link: granted when nobody alive holds its share, else refused with a
   * close reason naming the holder, so that a second process cannot take over a running fleet.
   */
  private async acceptControl(ws: WebSocket, share: string, instance: string): Promise<void> {
    const shares = this.links.shares;
    if (!shares.includes(share)) {
      const reason = closeReason(`share ${share} is not one of this fleet's shares (${shares.join(', ')})`);
      this.logger.warn(`refused a control link for share ${share} from instance ${instance}: ${reason}`);
      ws.close(UNKNOWN_SHARE_CLOSE_CODE, reason);
      return;
    }
    const claim = this.shares.claim(share, instance);
    if (!claim.granted) {
      const { holder } = claim;
      const reason = closeReason(
        `another simulator holds share ${share} (instance ${holder.instance}, epoch ${holder.epoch}, since ${new Date(holder.since).toISOString()})`,
      );
      this.logger.warn(`refused a control link for share ${share} from instance ${instance}: ${reason}`);
      ws.close(SHARE_HELD_CLOSE_CODE, reason);
      return;
    }
    const { grant, displaced } = claim;
    if (displaced !== undefined && displaced.instance !== instance) {
      this.logger.warn(
        `share ${share}: instance ${displaced.instance} (epoch ${displaced.epoch}) answers no heartbeat; taken over by instance ${instance}`,
      );
    }
    const peer: LinkPeer = new LinkPeer(
      ws,
      {
        side: SERVICE_CONTROL_SIDE,
        onRequest: () =>
          Promise.reject(new ContractError('PAR-001', 'the service takes no control requests')),
        onClose: () => this.releaseControl(grant, peer),
        onPong: () => this.shares.heartbeat(grant),
      },
      (error) => this.logger.warn(`control link: ${String(error)}`),
    );
    this.links.attachControl(grant, peer);
    this.logger.log(`share ${share} linked to instance ${instance}, epoch ${grant.epoch}`);
    const notice: ShareNotice = { type: 'share', share, instance, epoch: grant.epoch };
    peer.notify(notice);
    // Only the terminals of its share: the other shares' simulators host the rest.
    const fleet = await this.terminals.listAll().catch((error: unknown) => {
      // The store is away: the fleet sync hosts what is missing once it is back.
      this.logger.warn(`share ${share}: the fleet could not be read: ${String(error)}`);
      return undefined;
    });
    if (fleet === undefined) return;
    const terminals = fleet.filter((terminal) => this.links.shareOf(terminal.serialNumber) === share);
    peer.notify({ type: 'fleet', terminals: terminals.map(terminalProfile) });
    this.links.fleetNoticed(
      grant,
      terminals.map((terminal) => terminal.serialNumber),
      Date.now(),
    );
  }

  private releaseControl(grant: ShareGrant, peer: LinkPeer): void {
    this.shares.release(grant);
    this.links.detachControl(grant, peer);
  }
}
