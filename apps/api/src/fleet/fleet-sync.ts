import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalRepository } from '../terminals/terminal.repository';

const HOST_TIMEOUT_MS = 5000;
/** A terminal just asked for is given this long to link before it is asked for again. */
const REHOST_AFTER_MS = 5000;

/**
 * Keeps each share's simulator hosting every terminal of its share the database lists, from the
 * replica that holds the share's control link: one added by the merchant CLI
 * (which writes the database directly, while the service runs) links up within a tick, and one
 * whose hosting was lost is asked for again. Offline terminals are left as the sandbox set them.
 */
@Injectable()
export class FleetSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FleetSync');
  private readonly askedAt = new Map<string, number>();
  /** Terminals being reset or removed: hosting them meanwhile would bring back what goes away. */
  private readonly held = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(
    private readonly config: ApiConfig,
    private readonly terminals: TerminalRepository,
    private readonly links: TerminalLinks,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sync(), this.config.FLEET_SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Runs `work` while these terminals are left alone. */
  async holding<T>(serials: string[], work: () => Promise<T>): Promise<T> {
    for (const serial of serials) this.held.set(serial, (this.held.get(serial) ?? 0) + 1);
    try {
      return await work();
    } finally {
      for (const serial of serials) {
        const count = (this.held.get(serial) ?? 1) - 1;
        if (count === 0) this.held.delete(serial);
        else this.held.set(serial, count);
      }
    }
  }

  /** One pass: asks the simulators linked here to host each terminal of theirs that should be linked and is not. */
  async sync(): Promise<void> {
    if (this.syncing || !this.links.anyControlHere) return;
    this.syncing = true;
    try {
      const now = Date.now();
      const downHere = (await this.terminals.listAll()).filter(
        (terminal) =>
          !terminal.offline &&
          this.links.state(terminal) === 'down' &&
          this.links.controlPeerOf(this.links.shareOf(terminal.serialNumber)) !== undefined,
      );
      // An uplink another replica holds is up: its terminal is hosted.
      const elsewhere = await this.links.uplinksAnywhere(downHere.map((terminal) => terminal.serialNumber));
      const down = downHere.filter((terminal) => !(elsewhere?.has(terminal.serialNumber) ?? false));
      const listed = new Set(down.map((terminal) => terminal.serialNumber));
      for (const serial of this.askedAt.keys()) if (!listed.has(serial)) this.askedAt.delete(serial);
      for (const terminal of down) {
        if (this.held.has(terminal.serialNumber)) continue;
        if (now - (this.askedAt.get(terminal.serialNumber) ?? 0) < REHOST_AFTER_MS) continue;
        this.askedAt.set(terminal.serialNumber, now);
        await this.links.host(terminal, HOST_TIMEOUT_MS);
      }
    } catch (error) {
      this.logger.warn(`fleet sync: ${String(error)}`);
    } finally {
      this.syncing = false;
    }
  }
}
