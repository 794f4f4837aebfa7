import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { cardholderAt } from '@tps/domain';
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
  private readonly logger = new Logger('CardholderLapse');
  private timer: NodeJS.Timeout | undefined;
  /** The pass under way: a stop waits for it, so that the database closes after its last user. */
  private running: Promise<void> | undefined;

  constructor(
    private readonly config: ApiConfig,
    private readonly terminals: TerminalRepository,
    private readonly links: TerminalLinks,
    private readonly clock: RealClock,
  ) {}

  onApplicationBootstrap(): void {
    const lapseMs = this.config.CARDHOLDER_MANUAL_LAPSE_MS;
    const every = Math.min(Math.max(Math.floor(lapseMs / 10), MIN_SWEEP_INTERVAL_MS), MAX_SWEEP_INTERVAL_MS);
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass: every `manual` past its lapse is hosted `auto`, then stored so. In that order, a
   * record that reads `auto` never has a simulator still waiting for a card behind it.
   */
  sweep(): Promise<void> {
    // One pass at a time: a slow store does not pile them up.
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
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
    } catch (error) {
      // The next pass tries again: what is not stored `auto` is still listed `manual`.
      this.logger.warn(`cardholder lapse: ${String(error)}`);
    }
  }
}
