import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { WebSocket } from 'ws';
import { ContractError } from '@tps/domain';
import {
  CONTROL_PATH,
  LINK_INSTANCE_HEADER,
  LINK_SHARE_HEADER,
  LINK_TOKEN_HEADER,
  LinkPeer,
  SHARE_HELD_CLOSE_CODE,
  SIMULATOR_CONTROL_SIDE,
  UNKNOWN_SHARE_CLOSE_CODE,
  type ControlNotice,
  type FleetChange,
  type ControlRequest,
} from '@tps/link';
import { SimulatorConfig, apiUrls, websocketUrl } from '../config/simulator-config';
import { Fleet } from '../fleet/fleet';
import { ShareMembership } from './share-membership';

const RECONNECT_MAX_MS = 1000;
/** Close codes of a refused control link: held by another process, or a share the fleet has not. */
const REFUSED_CODES = new Set([SHARE_HELD_CLOSE_CODE, UNKNOWN_SHARE_CLOSE_CODE]);

/**
 * The simulator's link to the service that stands for the terminals' local network (Local-form
 * operations) and carries the sandbox controls and the fleet list.
 */
@Injectable()
export class ControlLink implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ControlLink');
  private peer: LinkPeer | undefined;
  private stopped = false;
  private retryMs: number;
  /** Wait before asking again for a share another process holds: longer, so as not to disturb it. */
  private refusedRetryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly apiUrls: string[];
  /** The replica linked to, or tried last: a link that drops tries the next one. */
  private replica = 0;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly fleet: Fleet,
    private readonly membership: ShareMembership,
  ) {
    this.retryMs = config.RECONNECT_MIN_MS;
    this.refusedRetryMs = config.SHARE_RETRY_MIN_MS;
    this.apiUrls = apiUrls(config);
  }

  /** Linked, and holding this process's share: a refused link is open only for its close. */
  get isUp(): boolean {
    return (this.peer?.isOpen ?? false) && this.membership.state === 'holder';
  }

  onApplicationBootstrap(): void {
    this.connect();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.peer?.close();
  }

  private connect(): void {
    if (this.stopped) return;
    const apiUrl = this.apiUrls[this.replica];
    const socket = new WebSocket(websocketUrl(apiUrl, CONTROL_PATH), {
      headers: {
        [LINK_TOKEN_HEADER]: this.config.LINK_SECRET,
        [LINK_SHARE_HEADER]: this.membership.share,
        [LINK_INSTANCE_HEADER]: this.membership.instance,
      },
    });
    socket.once('close', (code: number, reason: Buffer) => {
      const refused = REFUSED_CODES.has(code);
      if (refused) this.onRefused(reason.toString('utf8'));
      else this.membership.lost();
      if (this.stopped) return;
      this.replica = (this.replica + 1) % this.apiUrls.length;
      const wait = refused ? this.refusedRetryMs : this.retryMs;
      this.retryTimer = setTimeout(() => this.connect(), wait);
      if (refused) {
        this.refusedRetryMs = Math.min(this.config.SHARE_RETRY_MAX_MS, this.refusedRetryMs * 2);
      } else {
        this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
      }
    });
    socket.on('error', () => undefined);
    this.peer = new LinkPeer(
      socket,
      {
        side: SIMULATOR_CONTROL_SIDE,
        onRequest: (request) => this.onRequest(request),
        onNotice: (notice) => this.onNotice(notice, apiUrl),
      },
      (error) => this.logger.warn(String(error)),
    );
  }

  private async onRequest(request: ControlRequest): Promise<unknown> {
    switch (request.type) {
      case 'terminal':
        return this.fleet.handle(request.serial, request.request);
      case 'host':
        await this.fleet.host(request.terminal);
        return { hosted: request.terminal.serialNumber };
      case 'reset': {
        const change: FleetChange = { serials: await this.fleet.reset(request.terminals) };
        return change;
      }
      case 'remove': {
        const change: FleetChange = { serials: await this.fleet.remove(request.serials) };
        return change;
      }
      default: {
        const unknownRequest: never = request;
        throw new ContractError('PAR-001', `unknown control request ${JSON.stringify(unknownRequest)}`);
      }
    }
  }

  /** Another process holds this share, or the fleet has no such share: say so, and what to do, then ask again later. */
  private onRefused(reason: string): void {
    this.membership.refused(reason);
    this.logger.error(
      `the service refused this simulator (instance ${this.membership.instance}): ${reason}; ` +
        `stop it, or start this one with another FLEET_SHARE. Asking again in ${this.refusedRetryMs} ms`,
    );
  }

  private onNotice(notice: ControlNotice, apiUrl: string): void {
    if (notice.type === 'share') {
      this.retryMs = this.config.RECONNECT_MIN_MS;
      this.refusedRetryMs = this.config.SHARE_RETRY_MIN_MS;
      this.membership.granted(notice.epoch, apiUrl);
      this.logger.log(
        `connected to the service: holds share ${notice.share} as instance ${notice.instance}, epoch ${notice.epoch}`,
      );
      return;
    }
    this.fleet.retain(notice.terminals.map((terminal) => terminal.serialNumber));
    for (const terminal of notice.terminals) {
      this.fleet
        .host(terminal)
        .catch((error: unknown) => this.logger.error(`hosting ${terminal.serialNumber}: ${String(error)}`));
    }
  }
}
