import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { cardholderAt } from '@tps/domain';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalRepository } from '../terminals/terminal.repository';
import { cardholderOf, storeCardholder } from './cardholder-of-terminal';
import { RealClock } from './real-clock';

const HOST_TIMEOUT_MS = 5000;
/** A lapse is stored within a tenth of its length, and at most this late. */
const MAX_SWEEP_INTERVAL_MS = 5000;
const MIN_SWEEP_INTERVAL_MS = 50;

/**
 * Puts `cardholder: manual` back to `auto` once CARDHOLDER_MANUAL_LAPSE_MS have passed since it
 * was set (contract §15), and tells the simulator, so that a setting one viewer of a shared demo
 * merchant forgot does not make everyone's charges wait for a card.
 */
@Injectable()
export class CardholderLapse implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(
    private readonly config: ApiConfig,
    private readonly terminals: TerminalRepository,
    private readonly links: TerminalLinks,
    private readonly clock: RealClock,
    tasks: BackgroundTasks,
  ) {
    const lapseMs = config.CARDHOLDER_MANUAL_LAPSE_MS;
    // The next pass tries again after a failure: what is not stored `auto` is still listed `manual`.
    this.task = tasks.every({
      name: 'cardholder-lapse',
      everyMs: Math.min(Math.max(Math.floor(lapseMs / 10), MIN_SWEEP_INTERVAL_MS), MAX_SWEEP_INTERVAL_MS),
      run: () => this.pass(),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /**
   * Every `manual` past its lapse is hosted `auto`, then stored so. In that order, a record that
   * reads `auto` never has a simulator still waiting for a card behind it.
   */
  private async pass(): Promise<void> {
    const now = this.clock.nowMs();
    for (const terminal of await this.terminals.listManual()) {
      const setting = cardholderAt(cardholderOf(terminal), now, this.config.CARDHOLDER_MANUAL_LAPSE_MS);
      if (setting.mode === 'manual') continue;
      const setAt = terminal.cardholderSetAt;
      storeCardholder(terminal, setting);
      await this.links.host(terminal, HOST_TIMEOUT_MS);
      if (await this.terminals.lapseManual(terminal.serialNumber, setAt)) continue;
      // Set again meanwhile (a request, another process): the simulator hosts what is stored.
      const current = await this.terminals.findBySerial(terminal.serialNumber);
      if (current !== null) await this.links.host(current, HOST_TIMEOUT_MS);
    }
  }
}
