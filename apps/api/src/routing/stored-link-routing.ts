import { NotHandedOverError } from '@tps/domain';
import type { UplinkNotice } from '@tps/link';
import type { LinkRouting } from './link-routing';
import type { RequestRouter } from './request-router';
import type { LinkHolders, LinkKind } from './routing-ports';
import type { ThisReplica } from './this-replica';

/**
 * Link ownership stored for the other replicas: which replica (and epoch) holds each terminal's
 * uplink and each share's control link, written when a link opens or closes, in the order they
 * happened here, never per heartbeat. Uplink changes that come while a write is under way are
 * stored together by the next one (one statement however many). Requests for links held
 * elsewhere go through the router.
 */
export class StoredLinkRouting implements LinkRouting {
  readonly linksMove = true;
  /** Ownership writes, one after another, so that a close never overtakes its open. */
  private writes: Promise<void> = Promise.resolve();
  /** The uplink changes of the last queued write, while it has not started: later ones join it. */
  private batch: Map<string, boolean> | undefined;
  /** The links held here, as the stored rows should say. */
  private readonly held = {
    uplinks: new Set<string>(),
    controls: new Map<string, { instance: string; epoch: number }>(),
  };
  /** A write failed (the store was away): the stored rows may disagree with `held` until repaired. */
  private stale = false;

  constructor(
    private readonly holders: LinkHolders,
    private readonly replica: ThisReplica,
    private readonly router: RequestRouter,
    private readonly onError: (error: unknown) => void,
    private readonly relayNotice: (serial: string, notice: UplinkNotice) => void,
  ) {}

  uplinkOpened(serial: string): void {
    this.held.uplinks.add(serial);
    this.uplinkChanged(serial, true);
  }

  uplinkClosed(serial: string): void {
    this.held.uplinks.delete(serial);
    this.uplinkChanged(serial, false);
  }

  controlOpened(share: string, instance: string, epoch: number): void {
    this.held.controls.set(share, { instance, epoch });
    this.enqueue(() => this.holders.controlOpened(share, instance, epoch));
  }

  controlClosed(share: string): void {
    this.held.controls.delete(share);
    this.enqueue(() => this.holders.controlClosed(share));
  }

  async route(
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<{ reply: unknown } | undefined> {
    const routed = await this.router.route(link, key, serial, request, timeoutMs);
    // No live holder found just after the store was away: the holders' heartbeats lapsed with it,
    // so "not linked" (TER-001) may be false; nothing handed over all the same (503 INT-002).
    if (routed === undefined && this.replica.recentlyCutOff()) {
      throw new NotHandedOverError(
        new Error('the link holders cannot be told apart yet: the store was away'),
      );
    }
    return routed;
  }

  noticeElsewhere(serial: string, notice: UplinkNotice): void {
    this.relayNotice(serial, notice);
  }

  linkedAnywhere(share: string): Promise<{ uplinks: Set<string>; control: boolean }> {
    return this.holders.liveLinks(share);
  }

  shareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined> {
    return this.holders.liveShareHolder(share);
  }

  async uplinksAnywhere(serials: string[]): Promise<Map<string, string>> {
    if (serials.length === 0) return new Map();
    return this.holders.liveUplinksAmong(serials);
  }

  /**
   * After a failed write, stores the links held here as they are now (and removes the rows of those
   * no longer held), in the order of the writes; asked again each time until it succeeds and every
   * link held here is stored as held here. A replica that lost a link while the store was away
   * removes its row by its own repair, which may come after this one's.
   */
  repair(): void {
    if (!this.stale) return;
    this.stale = false;
    this.enqueue(async () => {
      if (!(await this.holders.rewrite(this.held))) this.stale = true;
    });
  }

  /**
   * Stores the links held here as they are now though no write failed: across replicas the last
   * write of a link's holder wins, so another replica's write for the same link, held up, may
   * have left its row wrong or gone.
   */
  rewriteAll(): void {
    this.stale = true;
    this.repair();
  }

  letGo(serials: readonly string[]): Promise<void> {
    for (const serial of serials) this.held.uplinks.delete(serial);
    const changes = new Map(serials.map((serial): [string, boolean] => [serial, false]));
    return new Promise((written) =>
      // A failure leaves the rows to the repair, which writes what `held` says: not these.
      this.enqueue(() => this.holders.uplinksChanged(changes).finally(written)),
    );
  }

  flush(): Promise<void> {
    return this.writes;
  }

  /** Queues an uplink change: into the last queued write while it waits, so that the order holds. */
  private uplinkChanged(serial: string, open: boolean): void {
    let batch = this.batch;
    if (batch === undefined) {
      const changes = new Map<string, boolean>();
      this.enqueue(() => {
        if (this.batch === changes) this.batch = undefined;
        return this.holders.uplinksChanged(changes);
      });
      this.batch = batch = changes;
    }
    // Only a serial's last change counts: it says how its uplink stands.
    batch.set(serial, open);
  }

  private enqueue(work: () => Promise<void>): void {
    // A write queued after a batch closes it: a later uplink change goes after this write.
    this.batch = undefined;
    this.writes = this.writes.then(work).catch((error: unknown) => {
      this.stale = true;
      this.onError(error);
    });
  }
}
