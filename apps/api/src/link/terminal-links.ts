import { Injectable } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import {
  LinkPeer,
  LinkUnavailableError,
  type LinkEvent,
  type TerminalProfile,
  type TerminalRequest,
  type UplinkNotice,
} from '@tps/link';
import type { TerminalEntity } from '../terminals/terminal.entity';
import type { RequestForm } from '../terminals/request-form';

export type LinkState = 'up' | 'down' | 'offline';

export function terminalProfile(terminal: TerminalEntity): TerminalProfile {
  return {
    serialNumber: terminal.serialNumber,
    merchantId: terminal.merchantId,
    model: terminal.model,
    wifiMac: terminal.wifiMac,
    room: terminal.room,
    pace: terminal.pace,
    printer: terminal.printer,
    offline: terminal.offline,
    cardholder: terminal.cardholder ?? 'auto',
  };
}

/**
 * The live links: each terminal's own uplink (Cloud form), and the simulator's control link,
 * which stands for the terminals' local network (Local form) and carries sandbox controls.
 */
@Injectable()
export class TerminalLinks {
  private readonly uplinks = new Map<string, LinkPeer>();
  private readonly upWaiters = new Map<string, Set<() => void>>();
  private control: LinkPeer | undefined;

  attachUplink(serial: string, peer: LinkPeer): void {
    const previous = this.uplinks.get(serial);
    this.uplinks.set(serial, peer);
    previous?.terminate();
    for (const wake of this.upWaiters.get(serial) ?? []) wake();
  }

  /** Resolves once the terminal's uplink is up, or after `timeoutMs` (whichever comes first). */
  async waitUp(serial: string, timeoutMs: number): Promise<void> {
    if (this.uplinks.get(serial)?.isOpen) return;
    await new Promise<void>((resolve) => {
      const waiters = this.upWaiters.get(serial) ?? new Set<() => void>();
      this.upWaiters.set(serial, waiters);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.upWaiters.delete(serial);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      waiters.add(done);
    });
  }

  /** Drops a terminal's uplink at once (sandbox offline); the link server refuses it until online. */
  cutUplink(serial: string): void {
    const peer = this.uplinks.get(serial);
    this.uplinks.delete(serial);
    peer?.terminate();
  }

  detachUplink(serial: string, peer: LinkPeer): void {
    if (this.uplinks.get(serial) === peer) this.uplinks.delete(serial);
  }

  attachControl(peer: LinkPeer): void {
    const previous = this.control;
    this.control = peer;
    previous?.terminate();
  }

  detachControl(peer: LinkPeer): void {
    if (this.control === peer) this.control = undefined;
  }

  get controlPeer(): LinkPeer | undefined {
    return this.control?.isOpen ? this.control : undefined;
  }

  linkedCount(): number {
    return [...this.uplinks.values()].filter((peer) => peer.isOpen).length;
  }

  state(terminal: TerminalEntity): LinkState {
    if (terminal.offline) return 'offline';
    return this.uplinks.get(terminal.serialNumber)?.isOpen ? 'up' : 'down';
  }

  /** Sends a request to a terminal by the route of its form; an unreachable terminal is TER-001. */
  async send<T>(
    terminal: TerminalEntity,
    form: RequestForm,
    request: TerminalRequest,
    timeoutMs: number,
  ): Promise<T> {
    const serial = terminal.serialNumber;
    if (form === 'cloud') {
      const uplink = this.uplinks.get(serial);
      if (terminal.offline || uplink === undefined || !uplink.isOpen) {
        throw new ContractError('TER-001', `terminal ${serial} is offline`);
      }
      return this.guard(uplink.request<T>(request, timeoutMs), serial);
    }
    const control = this.controlPeer;
    if (control === undefined) {
      throw new ContractError('TER-001', `terminal ${serial} cannot be reached on its local network`);
    }
    return this.guard(control.request<T>({ type: 'terminal', serial, request }, timeoutMs), serial);
  }

  /**
   * Tells a terminal that the service stored its reply's events, so that they need not come up its
   * uplink too. A notice that is lost costs only those duplicates.
   */
  stored(terminal: TerminalEntity, events: LinkEvent[]): void {
    const [first] = events;
    if (first === undefined) return;
    const notice: UplinkNotice = {
      type: 'stored',
      merchantId: first.event.merchant_id,
      clientTransactionId: first.event.client_transaction_id,
      eventIds: events.map((link) => link.event.event_id),
    };
    this.uplinks.get(terminal.serialNumber)?.notify(notice);
  }

  /** Tells the simulator about a terminal it should host, or about changed settings. */
  async host(terminal: TerminalEntity, timeoutMs: number): Promise<void> {
    const control = this.controlPeer;
    if (control === undefined) return;
    await this.guard(
      control.request({ type: 'host', terminal: terminalProfile(terminal) }, timeoutMs),
      terminal.serialNumber,
    );
  }

  private async guard<T>(reply: Promise<T>, serial: string): Promise<T> {
    try {
      return await reply;
    } catch (error) {
      // The request was sent: whether the terminal took it cannot be known (contract §13).
      if (error instanceof LinkUnavailableError) {
        throw new ContractError(
          'TER-002',
          error.reason === 'timeout'
            ? `terminal ${serial} did not answer in time; the outcome is unknown`
            : `the link to terminal ${serial} was lost before it answered; the outcome is unknown`,
        );
      }
      throw error;
    }
  }
}
