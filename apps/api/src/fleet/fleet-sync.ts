import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalRepository } from '../terminals/terminal.repository';
import { FleetPass } from './fleet-pass';

/**
 * Keeps each share's simulator hosting every terminal of its share the database lists, from the
 * replica that holds the share's control link: one added by the merchant CLI
 * (which writes the database directly, while the service runs) links up within a tick, and one
 * whose hosting was lost is asked for again. Offline terminals are left as the sandbox set them.
 */
@Injectable()
export class FleetSync implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FleetSync');
  private readonly pass: FleetPass;
  private timer: NodeJS.Timeout | undefined;
  /** The pass under way: a stop waits for it, so that the database closes after its last user. */
  private running: Promise<void> | undefined;

  constructor(
    private readonly config: ApiConfig,
    terminals: TerminalRepository,
    links: TerminalLinks,
  ) {
    this.pass = new FleetPass(terminals, links, () => Date.now());
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sync(), this.config.FLEET_SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs `work` while these terminals are left alone. */
  holding<T>(serials: string[], work: () => Promise<T>): Promise<T> {
    return this.pass.holding(serials, work);
  }

  /** One pass, unless one is still running: a slow store does not pile them up. */
  sync(): Promise<void> {
    this.running ??= this.pass
      .run()
      .catch((error: unknown) => this.logger.warn(`fleet sync: ${String(error)}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
