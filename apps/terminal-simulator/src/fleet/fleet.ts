import { performance } from 'node:perf_hooks';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import type { TerminalProfile, TerminalRequest } from '@tps/link';
import { SimulatorConfig } from '../config/simulator-config';
import { ShareMembership } from '../link/share-membership';
import { NOTICE_WAIT_MAX_MS, NoticeWait } from '../link/notice-wait';
import { REPLY_HOLD_MS, Uplink } from '../link/uplink';
import { PrintStore } from '../printer/print-store';
import { TerminalPrinter } from '../printer/terminal-printer';
import { TerminalRuntime } from '../runtime/terminal-runtime';
import { LocalSearch } from '../search/local-search';
import { REAL_TIMERS } from '../runtime/timers';
import { TerminalErasure } from '../store/terminal-erasure';
import { TerminalStore, transactionKey } from '../store/terminal-store';
import { servedRequestLine } from './served-request-line';

interface HostedTerminal {
  runtime: TerminalRuntime;
  uplink: Uplink;
  printer: TerminalPrinter;
}

/** The terminals this simulator hosts, as the service's fleet lists them. */
@Injectable()
export class Fleet implements OnApplicationShutdown {
  private readonly logger = new Logger('Fleet');
  private readonly hosted = new Map<string, HostedTerminal>();
  private readonly noticeWait = new NoticeWait(REPLY_HOLD_MS, NOTICE_WAIT_MAX_MS);

  constructor(
    private readonly config: SimulatorConfig,
    private readonly store: TerminalStore,
    private readonly localSearch: LocalSearch,
    private readonly printStore: PrintStore,
    private readonly erasure: TerminalErasure,
    private readonly membership: ShareMembership,
  ) {}

  get size(): number {
    return this.hosted.size;
  }

  /** The serials of the terminals hosted here. */
  serials(): string[] {
    return [...this.hosted.keys()];
  }

  linkedCount(): number {
    return [...this.hosted.values()].filter((t) => t.uplink.isUp).length;
  }

  /** Starts hosting a terminal, or applies its new settings. */
  async host(profile: TerminalProfile): Promise<void> {
    let terminal = this.hosted.get(profile.serialNumber);
    if (terminal === undefined) {
      const uplink: Uplink = new Uplink(
        profile.serialNumber,
        {
          linkSecret: this.config.LINK_SECRET,
          reconnectMinMs: this.config.RECONNECT_MIN_MS,
          credentials: () => this.membership.credentials(),
          noticeWait: this.noticeWait,
        },
        this.store,
        (request) => this.handle(profile.serialNumber, request),
        (message) => this.logger.warn(message),
      );
      const runtime = new TerminalRuntime(
        profile,
        this.store,
        uplink,
        (error) => this.logger.error(`terminal ${profile.serialNumber}: ${String(error)}`),
        { timers: REAL_TIMERS, scenarioWaitScale: this.config.SCENARIO_WAIT_SCALE },
      );
      const printer = this.printer(profile.serialNumber, runtime, uplink);
      terminal = { runtime, uplink, printer };
      this.hosted.set(profile.serialNumber, terminal);
      await runtime.recover();
      printer.start();
    }
    terminal.runtime.update(profile);
    if (profile.offline) terminal.uplink.close();
    else terminal.uplink.open();
  }

  /**
   * Sandbox reset: each terminal drops what it runs, its store is erased, and it starts again
   * idle with the settings given (a fresh runtime, uplink and printer).
   */
  async reset(profiles: TerminalProfile[]): Promise<string[]> {
    const serials = profiles.map((profile) => profile.serialNumber);
    await this.remove(serials);
    for (const profile of profiles) await this.host(profile);
    return serials;
  }

  /** Stops hosting the terminals and erases what they kept (sandbox account removal). */
  async remove(serials: string[]): Promise<string[]> {
    for (const serial of serials) this.retire(serial);
    await this.erasure.erase(serials);
    return serials;
  }

  /**
   * Stops hosting every terminal the service's fleet no longer lists (removed while this
   * simulator was not linked), so none keeps knocking on the service for ever.
   */
  retain(listed: string[]): void {
    const keep = new Set(listed);
    for (const serial of [...this.hosted.keys()]) if (!keep.has(serial)) this.retire(serial);
  }

  private retire(serial: string): void {
    const terminal = this.hosted.get(serial);
    if (terminal === undefined) return;
    this.hosted.delete(serial);
    terminal.runtime.retire();
    terminal.printer.stop();
    terminal.uplink.close();
  }

  /**
   * A request for one terminal, from its uplink (Cloud form) or its local network (Local form),
   * with its log line once answered.
   */
  async handle(serial: string, request: TerminalRequest): Promise<unknown> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await this.serve(serial, request);
    } catch (error) {
      outcome = error instanceof ContractError ? error.code : 'error';
      throw error;
    } finally {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      this.logger.log(servedRequestLine(serial, request, outcome, durationMs));
    }
  }

  private async serve(serial: string, request: TerminalRequest): Promise<unknown> {
    const terminal = this.hosted.get(serial);
    if (terminal === undefined) throw new ContractError('TER-001', `terminal ${serial} is not running`);
    switch (request.type) {
      case 'operation': {
        const { order } = request;
        return terminal.uplink.carryInReply(order.merchantId, order.clientTransactionId, () =>
          terminal.runtime.operate(order),
        );
      }
      case 'search':
        return this.localSearch.search(serial, request.merchantId, request.filters);
      case 'abort':
        return terminal.runtime.abort(request.merchantId, request.target);
      case 'card':
        return terminal.runtime.card(request.card);
      case 'events':
        return this.store.linkEvents(transactionKey(request.merchantId, request.clientTransactionId));
      case 'print':
        return terminal.printer.enqueue(request.job);
      default: {
        const unknownRequest: never = request;
        throw new ContractError('PAR-001', `unknown terminal request ${JSON.stringify(unknownRequest)}`);
      }
    }
  }

  private printer(serial: string, runtime: TerminalRuntime, uplink: Uplink): TerminalPrinter {
    const printer = new TerminalPrinter(
      serial,
      () => runtime.profile,
      this.printStore,
      uplink,
      (message) => this.logger.log(message),
    );
    uplink.whenUp(() => printer.report());
    return printer;
  }

  onApplicationShutdown(): void {
    for (const terminal of this.hosted.values()) terminal.uplink.close();
  }
}
