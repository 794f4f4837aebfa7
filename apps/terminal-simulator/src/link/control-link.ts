import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { WebSocket } from 'ws';
import { ContractError } from '@tps/domain';
import {
  CONTROL_PATH,
  LINK_TOKEN_HEADER,
  LinkPeer,
  type ControlNotice,
  type FleetChange,
  type ControlRequest,
} from '@tps/link';
import { SimulatorConfig, websocketUrl } from '../config/simulator-config';
import { Fleet } from '../fleet/fleet';

const RECONNECT_MAX_MS = 1000;

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
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly fleet: Fleet,
  ) {
    this.retryMs = config.RECONNECT_MIN_MS;
  }

  get isUp(): boolean {
    return this.peer?.isOpen ?? false;
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
    const socket = new WebSocket(websocketUrl(this.config.API_URL, CONTROL_PATH), {
      headers: { [LINK_TOKEN_HEADER]: this.config.LINK_SECRET },
    });
    socket.once('open', () => {
      this.retryMs = this.config.RECONNECT_MIN_MS;
      this.logger.log('connected to the service');
    });
    socket.once('close', () => {
      if (this.stopped) return;
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
    });
    socket.on('error', () => undefined);
    this.peer = new LinkPeer(
      socket,
      {
        onRequest: (body) => this.onRequest(body as ControlRequest),
        onNotice: (body) => this.onNotice(body as ControlNotice),
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

  private onNotice(notice: ControlNotice): void {
    if (notice.type !== 'fleet') return;
    this.fleet.retain(notice.terminals.map((terminal) => terminal.serialNumber));
    for (const terminal of notice.terminals) {
      this.fleet
        .host(terminal)
        .catch((error: unknown) => this.logger.error(`hosting ${terminal.serialNumber}: ${String(error)}`));
    }
  }
}
