import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CapReachedError } from '@tps/domain';
import { MerchantRepository } from '../auth/merchant.repository';
import { ApiConfig } from '../config/api-config';
import { ApiMetrics } from '../metrics/api-metrics';
import { replicaLimiter, type WindowLimiter } from '../rate-limit/replica-limiter';
import { TerminalRepository } from '../terminals/terminal.repository';
import { CONFORMANCE_RUNS_PER_ADDRESS, conformanceRunRefusal } from './conformance-run-cap';
import { readDescriptorLimit } from './descriptor-limit';
import { hardCaps, type HardCaps } from './hard-caps';

const HOUR_MS = 60 * 60 * 1000;

/** Each cap as its answers, logs and metrics name it. */
export const CAP_NAMES: Record<keyof HardCaps, string> = {
  pendingDeliveries: 'pending_deliveries',
  accountsPerHour: 'accounts_per_hour',
  accountsAlive: 'accounts_alive',
  conformanceRunsPerAddress: CONFORMANCE_RUNS_PER_ADDRESS,
  terminals: 'terminals',
  links: 'links',
  sockets: 'sockets',
};
/** A global cap frees as accounts are deleted (by their owners, or idle): worth a try a minute on. */
const GLOBAL_RETRY_SECONDS = 60;
/** A refused socket is logged at most this often; every one is counted. */
const DROP_LOG_MS = 10_000;

/**
 * The hard caps of contract §22, read once at start: per client address (accounts made per hour,
 * alive at once, conformance runs going on) and for the whole process (terminals, links, sockets),
 * the last three derived from the descriptor limit. Every refusal names the cap and its value, is
 * logged and counted.
 */
@Injectable()
export class Capacity implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Caps');
  readonly caps: HardCaps;
  private readonly hourly: WindowLimiter | undefined;
  /** The accounts each client address made that may still be alive, in this process. */
  private readonly madeBy = new Map<string, Set<string>>();
  /** Account creations admitted and not yet ended, per address; and their terminals. */
  private readonly pendingAccounts = new Map<string, number>();
  private pendingTerminals = 0;
  private lastDropLog = 0;

  constructor(
    config: ApiConfig,
    @InjectDataSource() dataSource: DataSource,
    private readonly metrics: ApiMetrics,
    private readonly terminals: TerminalRepository,
    private readonly merchants: MerchantRepository,
  ) {
    const limit = readDescriptorLimit();
    this.caps = hardCaps(config, limit);
    this.logger.log(
      `descriptor limit ${limit ?? 'none read'}; caps: ${Object.entries(this.caps)
        .map(([cap, value]) => `${CAP_NAMES[cap as keyof HardCaps]} ${value ?? 'none'}`)
        .join(', ')}`,
    );
    metrics.capsHeld(
      Object.fromEntries(
        Object.entries(this.caps).map(([cap, value]) => [
          CAP_NAMES[cap as keyof HardCaps],
          value as number | undefined,
        ]),
      ),
    );
    this.hourly =
      this.caps.accountsPerHour === undefined
        ? undefined
        : replicaLimiter(dataSource, 'account-address-hour', this.caps.accountsPerHour, HOUR_MS);
  }

  /**
   * Admits one account creation from `address` with `terminals` terminals, or throws the cap it
   * meets. The answer's `done` must be called once it ends, with the account made, if any.
   */
  async admitAccount(address: string, terminals: number): Promise<(made: string | undefined) => void> {
    await this.checkAlive(address);
    if (this.hourly !== undefined) {
      const taken = await this.hourly.takeExact(address);
      if (!taken.admitted) {
        throw this.refused(
          'accounts_per_hour',
          new CapReachedError(
            'CAP-002',
            'accounts_per_hour',
            this.caps.accountsPerHour ?? 0,
            `this client address made ${this.caps.accountsPerHour} sandbox accounts in the last hour, its cap (accounts_per_hour = ${this.caps.accountsPerHour}); retry after ${taken.retryAfterSeconds} s`,
            taken.retryAfterSeconds,
          ),
        );
      }
    }
    this.pendingAccounts.set(address, (this.pendingAccounts.get(address) ?? 0) + 1);
    let releaseTerminals: () => void;
    try {
      releaseTerminals = await this.reserveTerminals(terminals);
    } catch (error) {
      this.endPending(address);
      throw error;
    }
    return (made) => {
      releaseTerminals();
      this.endPending(address);
      if (made === undefined) return;
      const accounts = this.madeBy.get(address) ?? new Set<string>();
      accounts.add(made);
      this.madeBy.set(address, accounts);
    };
  }

  /**
   * Admits one more conformance run from `address`, or throws 429 RATE-001 at its cap: `running`
   * are the runs going on in the whole sandbox, read from where runs are kept (every replica's on
   * a shared database), each with the address that started it.
   */
  admitConformanceRun(
    address: string,
    running: ReadonlyArray<{ clientAddress: string | null }>,
    retryAfterSeconds: number,
  ): void {
    const refusal = conformanceRunRefusal(
      this.caps.conformanceRunsPerAddress,
      address,
      running,
      retryAfterSeconds,
    );
    if (refusal !== null) throw this.refused(CONFORMANCE_RUNS_PER_ADDRESS, refusal);
  }

  /**
   * Holds room for `count` more terminals under the global cap until the answer is called (once
   * they are stored, or not made), or throws 429 CAP-003.
   */
  async reserveTerminals(count: number): Promise<() => void> {
    const cap = this.caps.terminals;
    if (cap === undefined) return () => undefined;
    const stored = await this.terminals.countAll();
    if (stored + this.pendingTerminals + count > cap) {
      throw this.refused(
        'terminals',
        new CapReachedError(
          'CAP-003',
          'terminals',
          cap,
          `the sandbox holds as many terminals as it can serve (terminals = ${cap}, from its descriptor limit); retry after ${GLOBAL_RETRY_SECONDS} s`,
          GLOBAL_RETRY_SECONDS,
        ),
      );
    }
    this.pendingTerminals += count;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pendingTerminals -= count;
    };
  }

  /** Whether one more terminal uplink may open beside the `open` links; a refusal is logged and counted. */
  admitsLink(open: number): boolean {
    const cap = this.caps.links;
    if (cap === undefined || open < cap) return true;
    this.metrics.capRefused('links');
    this.logger.warn(`a terminal uplink refused: ${open} links open, the cap (links = ${cap})`);
    return false;
  }

  /** A refusal at an account's cap of pending deliveries (decided with its operation), logged and counted. */
  pendingDeliveriesRefused(merchantId: string): void {
    this.metrics.capRefused(CAP_NAMES.pendingDeliveries);
    this.logger.warn(
      `refused at a cap: merchant ${merchantId} has its ${CAP_NAMES.pendingDeliveries} = ${this.caps.pendingDeliveries}`,
    );
  }

  /** A connection the HTTP server closed at its cap of sockets (its `drop` event). */
  socketDropped(): void {
    this.metrics.capRefused('sockets');
    const now = Date.now();
    if (now - this.lastDropLog < DROP_LOG_MS) return;
    this.lastDropLog = now;
    this.logger.warn(
      `connections closed at once: the cap of sockets (sockets = ${this.caps.sockets}) is met`,
    );
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.hourly?.stop() ?? Promise.resolve();
  }

  private async checkAlive(address: string): Promise<void> {
    const cap = this.caps.accountsAlive;
    if (cap === undefined) return;
    const made = this.madeBy.get(address) ?? new Set<string>();
    // Those deleted since (by their owner, or idle) no longer count.
    for (const merchantId of [...made]) {
      if (!(await this.merchants.exists(merchantId))) made.delete(merchantId);
    }
    const alive = made.size + (this.pendingAccounts.get(address) ?? 0);
    if (alive >= cap) {
      throw this.refused(
        'accounts_alive',
        new CapReachedError(
          'CAP-001',
          'accounts_alive',
          cap,
          `this client address has ${alive} sandbox accounts alive, its cap (accounts_alive = ${cap}): delete one (DELETE /sandbox/accounts/me) first`,
        ),
      );
    }
  }

  private endPending(address: string): void {
    const left = (this.pendingAccounts.get(address) ?? 1) - 1;
    if (left <= 0) this.pendingAccounts.delete(address);
    else this.pendingAccounts.set(address, left);
  }

  private refused<E extends Error>(cap: string, error: E): E {
    this.metrics.capRefused(cap);
    this.logger.warn(`refused at a cap: ${error.message}`);
    return error;
  }
}
