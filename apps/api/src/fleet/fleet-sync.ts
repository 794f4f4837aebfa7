import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { BackgroundTasks } from '../metrics/background-tasks';
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
  private readonly pass: FleetPass;
  private readonly task: PeriodicTask;

  constructor(
    config: ApiConfig,
    terminals: TerminalRepository,
    links: TerminalLinks,
    tasks: BackgroundTasks,
  ) {
    this.pass = new FleetPass(terminals, links, () => Date.now());
    this.task = tasks.every({
      name: 'fleet-sync',
      everyMs: config.FLEET_SYNC_INTERVAL_MS,
      run: () => this.pass.run(),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** Runs `work` while these terminals are left alone. */
  holding<T>(serials: string[], work: () => Promise<T>): Promise<T> {
    return this.pass.holding(serials, work);
  }

  /** One pass now, or the one under way: a slow store does not pile them up. */
  sync(): Promise<void> {
    return this.task.runNow();
  }
}
