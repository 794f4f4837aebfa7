import { Inject, Injectable } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import {
  fleetShares,
  shareOfTerminal,
  GOING_AWAY_CLOSE_CODE,
  LinkPeer,
  LinkUnavailableError,
  controlReply,
  terminalReply,
  type ControlRequest,
  type LinkEvent,
  type TerminalProfile,
  type TerminalRequest,
  type UplinkNotice,
} from '@tps/link';
import { ApiConfig } from '../config/api-config';
import { LINK_ROUTING, type LinkRouting } from '../routing/link-routing';
import type { LinkKind } from '../routing/routing-ports';
import type { TerminalEntity } from '../terminals/terminal.entity';
import type { RequestForm } from '../terminals/request-form';
import { ArrivalMix } from './arrival-mix';
import type { ShareGrant } from './share-registry';

/** Who opened an uplink: the simulator instance, and the share and epoch it held then. */
export interface UplinkOwner {
  share: string;
  instance: string;
  epoch: number;
}

interface Uplink {
  peer: LinkPeer;
  owner: UplinkOwner;
}

interface ControlLink {
  peer: LinkPeer;
  grant: ShareGrant;
  /** The terminals its fleet notice asked the simulator to host, and when. */
  noticed?: { serials: ReadonlySet<string>; at: number };
}

export type LinkState = 'up' | 'down' | 'offline';

/** How often a wait for uplinks held by other replicas reads the store. */
const UP_POLL_MS = 100;
/**
 * How long a request for a link that no replica holds waits for it to come back before it is
 * refused 503 TER-001: a link moves between replicas (its replica stops, or asked it to link
 * again through the balancer) in a few tenths of a second, and its terminal is not offline.
 */
const LINK_RETURN_MS = 3000;
/**
 * How long a request whose holder could not send it (503 TER-001 from the replica holding the
 * link: it is stopping, or the link just closed there; nothing was sent) is asked again while
 * the link moves, every MOVE_RETRY_MS: a stopping replica of a version before this one hands its
 * links back only after its requests in flight.
 */
const LINK_MOVE_MS = 10_000;
const MOVE_RETRY_MS = 200;

/** Whether an error is "nothing was sent: the terminal is not reachable there". */
function notSent(error: unknown): boolean {
  return error instanceof ContractError && error.code === 'TER-001';
}

/** Why a sent request has no usable answer: in each case the outcome is unknown (contract §13). */
const LOST_REPLY: Record<LinkUnavailableError['reason'], (serial: string) => string> = {
  timeout: (serial) => `terminal ${serial} did not answer in time; the outcome is unknown`,
  closed: (serial) => `the link to terminal ${serial} was lost before it answered; the outcome is unknown`,
  unreadable: (serial) => `terminal ${serial} answered what the service cannot read; the outcome is unknown`,
};

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
 * which stands for the terminals' local network (Local form) and carries sandbox controls. A link
 * held by another replica is reached through it (contract, scale-out).
 */
@Injectable()
export class TerminalLinks {
  private readonly uplinks = new Map<string, Uplink>();
  private readonly upWaiters = new Map<string, Set<() => void>>();
  /** One control link per share, the holder's. */
  private readonly controls = new Map<string, ControlLink>();
  private changeCount = 0;
  /** Requests sent over the links held here whose reply has not come: a drain waits for them. */
  private sending = 0;
  /** The same, by link (`uplink:<serial>`, `control:<share>`): a link is handed back once it has none. */
  private readonly sendingOn = new Map<string, number>();
  /** Set while the replica drains: nothing new is sent over its links. */
  private handingBack = false;
  /** Whether each uplink's latest requests were asked here or handed over (uplink-rebalance.ts). */
  readonly arrivals = new ArrivalMix();

  constructor(
    @Inject(LINK_ROUTING) private readonly routing: LinkRouting,
    private readonly config: ApiConfig,
  ) {}

  /** The shares the fleet is split over (docs/contract.md, "Links between the apps"). */
  get shares(): string[] {
    return fleetShares(this.config.FLEET_SHARES);
  }

  /** The share a terminal belongs to: the control link of that share hosts it. */
  shareOf(serial: string): string {
    return shareOfTerminal(serial, this.config.FLEET_SHARES);
  }

  /** Grows with each link that opens or closes here: the fleet sync reads the fleet when it moved. */
  get changes(): number {
    return this.changeCount;
  }

  attachUplink(serial: string, peer: LinkPeer, owner: UplinkOwner): void {
    this.changeCount++;
    this.arrivals.forget(serial);
    const previous = this.uplinks.get(serial);
    this.uplinks.set(serial, { peer, owner });
    previous?.peer.terminate();
    this.routing.uplinkOpened(serial);
    for (const wake of this.upWaiters.get(serial) ?? []) wake();
  }

  /**
   * Resolves once every one of these terminals has its uplink up, on this replica or any live one
   * (for those `before` names, an uplink stored as linked later than that), or after `timeoutMs`.
   */
  async waitUp(serials: string[], timeoutMs: number, before?: Map<string, string>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let waiting = serials;
    for (;;) {
      waiting = waiting.filter((serial) => !this.uplinks.get(serial)?.peer.isOpen);
      if (waiting.length === 0) return;
      const stored = await this.uplinksAnywhere(waiting);
      if (stored !== undefined) {
        waiting = waiting.filter((serial) => {
          const linkedAt = stored.get(serial);
          return linkedAt === undefined || linkedAt === before?.get(serial);
        });
      }
      const left = deadline - Date.now();
      if (waiting.length === 0 || left <= 0) return;
      // On one process a link of this process wakes it; on several, the next read of the store does.
      await this.waitUpHere(waiting[0], stored === undefined ? left : Math.min(left, UP_POLL_MS));
    }
  }

  /**
   * The terminals whose uplink a live replica (another one too) is stored as holding, with when it
   * linked; undefined on one process, or when the store cannot say (then only this replica's count).
   */
  async uplinksAnywhere(serials: string[]): Promise<Map<string, string> | undefined> {
    return this.routing.uplinksAnywhere(serials).catch(() => undefined);
  }

  /** The link state of each terminal, its uplink held by this replica or any live one. */
  async statesAnywhere(terminals: TerminalEntity[]): Promise<Map<string, LinkState>> {
    const down = terminals.filter((terminal) => this.state(terminal) === 'down');
    const elsewhere = await this.uplinksAnywhere(down.map((terminal) => terminal.serialNumber));
    return new Map(
      terminals.map((terminal): [string, LinkState] => {
        const here = this.state(terminal);
        return [
          terminal.serialNumber,
          here === 'down' && elsewhere?.has(terminal.serialNumber) ? 'up' : here,
        ];
      }),
    );
  }

  /** Resolves once the terminal's uplink is up on this replica, or after `timeoutMs`. */
  private async waitUpHere(serial: string, timeoutMs: number): Promise<void> {
    if (this.uplinks.get(serial)?.peer.isOpen) return;
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
    const uplink = this.uplinks.get(serial);
    this.uplinks.delete(serial);
    uplink?.peer.terminate();
    if (uplink !== undefined) this.routing.uplinkClosed(serial);
    this.changeCount++;
  }

  detachUplink(serial: string, peer: LinkPeer): void {
    if (this.uplinks.get(serial)?.peer !== peer) return;
    this.uplinks.delete(serial);
    this.arrivals.forget(serial);
    this.routing.uplinkClosed(serial);
    this.changeCount++;
  }

  /**
   * The share's holder linked (the registry granted it). Its older link, if any, is closed, and so
   * are the uplinks another instance opened for this share: they are stale.
   */
  attachControl(grant: ShareGrant, peer: LinkPeer): void {
    this.changeCount++;
    const previous = this.controls.get(grant.share);
    this.controls.set(grant.share, { peer, grant });
    previous?.peer.terminate();
    this.routing.controlOpened(grant.share, grant.instance, grant.epoch);
    for (const [serial, uplink] of this.uplinks) {
      if (uplink.owner.share === grant.share && uplink.owner.instance !== grant.instance) {
        this.uplinks.delete(serial);
        uplink.peer.terminate();
        this.routing.uplinkClosed(serial);
      }
    }
  }

  detachControl(grant: ShareGrant, peer: LinkPeer): void {
    if (this.controls.get(grant.share)?.peer !== peer) return;
    this.controls.delete(grant.share);
    this.routing.controlClosed(grant.share);
    this.changeCount++;
  }

  /** Closes the control link of a grant that is no longer alive (its heartbeat lapsed). */
  dropControl(grant: ShareGrant): void {
    const control = this.controls.get(grant.share);
    if (control?.grant.link === grant.link) control.peer.terminate();
  }

  /** Pings every control link: their pongs are the holders' heartbeats. */
  pingControls(): void {
    for (const control of this.controls.values()) control.peer.ping();
  }

  /** The control link of a share, while it is open on this replica. */
  controlPeerOf(share: string): LinkPeer | undefined {
    const peer = this.controls.get(share)?.peer;
    return peer?.isOpen ? peer : undefined;
  }

  /** The fleet notice sent over this grant's control link asked for these terminals at `at`. */
  fleetNoticed(grant: ShareGrant, serials: string[], at: number): void {
    const control = this.controls.get(grant.share);
    if (control?.grant.link === grant.link) control.noticed = { serials: new Set(serials), at };
  }

  /** When the fleet notice of the terminal's share, its control link open here, asked for it. */
  noticedAt(serial: string): number | undefined {
    const control = this.controls.get(this.shareOf(serial));
    if (!control?.peer.isOpen || control.noticed?.serials.has(serial) !== true) return undefined;
    return control.noticed.at;
  }

  /** Whether this replica holds an open control link for every share of the fleet. */
  get allControlsHere(): boolean {
    return this.shares.every((share) => this.controlPeerOf(share) !== undefined);
  }

  /** Whether some live replica (this one or another) holds the share's control link. */
  async controlLinked(share: string): Promise<boolean> {
    if (this.controlPeerOf(share) !== undefined) return true;
    return (await this.routing.linkedAnywhere(share))?.control ?? false;
  }

  /** Whether this replica holds an open control link for some share of the fleet. */
  get anyControlHere(): boolean {
    return this.shares.some((share) => this.controlPeerOf(share) !== undefined);
  }

  linkedCount(): number {
    return [...this.uplinks.values()].filter((uplink) => uplink.peer.isOpen).length;
  }

  /** Whether this replica holds the terminal's open uplink. */
  upHere(serial: string): boolean {
    return this.uplinks.get(serial)?.peer.isOpen ?? false;
  }

  state(terminal: TerminalEntity): LinkState {
    if (terminal.offline) return 'offline';
    return this.uplinks.get(terminal.serialNumber)?.peer.isOpen ? 'up' : 'down';
  }

  /**
   * Sends a request to a terminal by the route of its form; an unreachable terminal is TER-001. The
   * reply has passed the schema of the request's kind, which `T` names for the caller.
   */
  async send<T>(
    terminal: TerminalEntity,
    form: RequestForm,
    request: TerminalRequest,
    timeoutMs: number,
  ): Promise<T> {
    const serial = terminal.serialNumber;
    if (form === 'cloud') {
      if (terminal.offline) throw new ContractError('TER-001', `terminal ${serial} is offline`);
      return (await this.sendMoving(
        'uplink',
        serial,
        request,
        timeoutMs,
        () => this.uplinkReturned(serial),
        () => new ContractError('TER-001', `terminal ${serial} is offline`),
      )) as T;
    }
    const local: ControlRequest = { type: 'terminal', serial, request };
    return (await this.control(serial, local, timeoutMs)) as T;
  }

  /**
   * Sends over the link that the request travels on, here or through the replica that holds it,
   * while links move between replicas: a link no replica holds is waited for (LINK_RETURN_MS),
   * and a request its holder could not send is asked again (LINK_MOVE_MS). On one process, once.
   */
  private async sendMoving(
    link: LinkKind,
    serial: string,
    request: unknown,
    timeoutMs: number,
    returned: () => Promise<boolean>,
    unreachable: () => ContractError,
  ): Promise<unknown> {
    const movedBy = Date.now() + LINK_MOVE_MS;
    let waitedForReturn = false;
    for (;;) {
      if (this.holds(link, serial)) {
        if (link === 'uplink') this.arrivals.arrived(serial, false);
        return this.sendHere(link, serial, request, timeoutMs);
      }
      const key = link === 'uplink' ? serial : this.shareOf(serial);
      try {
        const routed = await this.routing.route(link, key, serial, request, timeoutMs);
        if (routed !== undefined) return routed.reply;
      } catch (error) {
        if (!notSent(error) || !this.routing.linksMove || Date.now() >= movedBy) throw error;
        await new Promise((resolve) => setTimeout(resolve, MOVE_RETRY_MS));
        continue;
      }
      if (!this.routing.linksMove || waitedForReturn || !(await returned())) throw unreachable();
      waitedForReturn = true;
    }
  }

  /** Whether the terminal's uplink is up on some replica within LINK_RETURN_MS. */
  private async uplinkReturned(serial: string): Promise<boolean> {
    await this.waitUp([serial], LINK_RETURN_MS);
    return this.upHere(serial) || ((await this.uplinksAnywhere([serial]))?.has(serial) ?? false);
  }

  /** Whether the share's control link is up on some replica within LINK_RETURN_MS. */
  private async controlReturned(share: string): Promise<boolean> {
    const deadline = Date.now() + LINK_RETURN_MS;
    while (!(await this.controlLinked(share).catch(() => false))) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, UP_POLL_MS));
    }
    return true;
  }

  /**
   * Sends a control request over the control link of the terminal's share, on whichever replica
   * holds it; TER-001 when none does. The reply has passed the schema of the request's kind.
   */
  async control(serial: string, request: ControlRequest, timeoutMs: number): Promise<unknown> {
    return this.sendMoving(
      'control',
      serial,
      request,
      timeoutMs,
      () => this.controlReturned(this.shareOf(serial)),
      () => new ContractError('TER-001', `terminal ${serial} cannot be reached on its local network`),
    );
  }

  /** Whether this replica holds the link a request for `serial` travels on. */
  private holds(link: LinkKind, serial: string): boolean {
    const peer =
      link === 'uplink' ? this.uplinks.get(serial)?.peer : this.controlPeerOf(this.shareOf(serial));
    return peer?.isOpen ?? false;
  }

  /**
   * Sends over a link this replica holds (for a request of its own, or one another replica handed
   * to it); TER-001 when it holds none. The reply has passed the schema of the request's kind.
   */
  async sendHere(link: LinkKind, serial: string, request: unknown, timeoutMs: number): Promise<unknown> {
    if (this.handingBack) {
      throw new ContractError('TER-001', `the replica that holds terminal ${serial}'s link is stopping`);
    }
    const key = this.linkKey(link, serial);
    this.sending++;
    this.sendingOn.set(key, (this.sendingOn.get(key) ?? 0) + 1);
    try {
      return await this.sendOver(link, serial, request, timeoutMs);
    } finally {
      this.sending--;
      const left = (this.sendingOn.get(key) ?? 1) - 1;
      if (left > 0) this.sendingOn.set(key, left);
      else {
        this.sendingOn.delete(key);
        if (this.handingBack) this.closeLink(link, serial);
      }
    }
  }

  /** A request another replica handed to this one, for a link held here (routing). */
  sendRouted(link: LinkKind, serial: string, request: unknown, timeoutMs: number): Promise<unknown> {
    if (link === 'uplink') this.arrivals.arrived(serial, true);
    return this.sendHere(link, serial, request, timeoutMs);
  }

  /** Whether the replica is handing its links back (it drains). */
  get isHandingBack(): boolean {
    return this.handingBack;
  }

  /** The link a request for `serial` travels on, as a key: the uplink's serial, or the control link's share. */
  private linkKey(link: LinkKind, serial: string): string {
    return link === 'uplink' ? `uplink:${serial}` : `control:${this.shareOf(serial)}`;
  }

  /** Whether a request is under way on the terminal's uplink here. */
  busyUplink(serial: string): boolean {
    return this.sendingOn.has(`uplink:${serial}`);
  }

  /** The terminals whose uplink this replica holds. */
  uplinkSerials(): string[] {
    return [...this.uplinks.keys()];
  }

  /** Closes the terminal's uplink with a close code that asks it to link again. */
  closeUplink(serial: string, code: number, reason: string): void {
    this.uplinks.get(serial)?.peer.close(code, reason);
  }

  /** Requests under way on the links held here, own or handed over by another replica. */
  get requestsInFlight(): number {
    return this.sending;
  }

  /**
   * The replica drains (contract, "Several replicas"): from now on a request for a link held here
   * is refused 503 TER-001 (nothing was sent: asked again, it finds the terminal linked elsewhere
   * once this replica has closed its links), and each link is closed once nothing is under way on
   * it (at once for those idle), so that its terminal links again, to another replica.
   */
  handBack(): void {
    this.handingBack = true;
    for (const serial of this.uplinks.keys())
      if (!this.sendingOn.has(`uplink:${serial}`)) this.closeLink('uplink', serial);
    for (const [share, control] of this.controls)
      if (!this.sendingOn.has(`control:${share}`))
        control.peer.close(GOING_AWAY_CLOSE_CODE, 'the service is stopping');
  }

  /** Closes every link at once, what is under way on them included (its callers: 504 TER-002). */
  closeAll(): void {
    for (const uplink of this.uplinks.values()) uplink.peer.terminate();
    for (const control of this.controls.values()) control.peer.terminate();
  }

  private closeLink(link: LinkKind, serial: string): void {
    if (link === 'uplink')
      this.uplinks.get(serial)?.peer.close(GOING_AWAY_CLOSE_CODE, 'the service is stopping');
    else this.controlPeerOf(this.shareOf(serial))?.close(GOING_AWAY_CLOSE_CODE, 'the service is stopping');
  }

  private async sendOver(
    link: LinkKind,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<unknown> {
    if (link === 'uplink') {
      const uplink = this.uplinks.get(serial)?.peer;
      if (uplink === undefined || !uplink.isOpen)
        throw new ContractError('TER-001', `terminal ${serial} is offline`);
      const sent = request as TerminalRequest;
      return this.guard(uplink.request(sent, timeoutMs, terminalReply(sent)), serial);
    }
    const control = this.controlPeerOf(this.shareOf(serial));
    if (control === undefined) {
      throw new ContractError('TER-001', `terminal ${serial} cannot be reached on its local network`);
    }
    const sent = request as ControlRequest;
    return this.guard(control.request(sent, timeoutMs, controlReply(sent)), serial);
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
    // A routed operation: the replica that holds the uplink passes the notice on.
    if (this.holds('uplink', terminal.serialNumber)) this.noticeHere(terminal.serialNumber, notice);
    else this.routing.noticeElsewhere(terminal.serialNumber, notice);
  }

  /** Sends a notice down the terminal's uplink if this replica holds it (another may have stored the events). */
  noticeHere(serial: string, notice: UplinkNotice): void {
    this.uplinks.get(serial)?.peer.notify(notice);
  }

  /** Tells the simulator of the terminal's share about a terminal it should host, or about changed settings. */
  async host(terminal: TerminalEntity, timeoutMs: number): Promise<void> {
    const serial = terminal.serialNumber;
    const request: ControlRequest = { type: 'host', terminal: terminalProfile(terminal) };
    if (this.holds('control', serial)) await this.sendHere('control', serial, request, timeoutMs);
    else await this.routing.route('control', this.shareOf(serial), serial, request, timeoutMs);
  }

  private async guard<T>(reply: Promise<T>, serial: string): Promise<T> {
    try {
      return await reply;
    } catch (error) {
      // The request was sent: whether the terminal took it cannot be known (contract §13).
      if (error instanceof LinkUnavailableError) {
        throw new ContractError('TER-002', LOST_REPLY[error.reason](serial));
      }
      throw error;
    }
  }
}
