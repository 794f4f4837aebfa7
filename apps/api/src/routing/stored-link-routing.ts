import { NotHandedOverError } from '@tps/domain';
import type { UplinkNotice } from '@tps/link';
import type { Pool } from 'pg';
import type { LinkRouting } from './link-routing';
import type { RequestRouter } from './request-router';
import { rewriteHolders } from './rewrite-holders';
import type { LinkKind } from './routing-ports';
import type { ThisReplica } from './this-replica';
import { writeUplinkChanges } from './write-uplink-changes';

/** A stored owner row `o` whose replica is alive (`$1`: the lapse in milliseconds). */
const LIVE_HOLDER = `JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
  WHERE r.heartbeat_at > now() - $1 * interval '1 millisecond'`;

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
    private readonly pool: Pool,
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
    this.write(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (share) DO UPDATE SET instance = $2, epoch = $3, replica_id = $4, replica_epoch = $5, since = now()`,
      [share, instance, epoch, this.replica.id, this.replica.epoch],
    );
  }

  controlClosed(share: string): void {
    this.held.controls.delete(share);
    this.write('DELETE FROM share_holders WHERE share = $1 AND replica_id = $2 AND replica_epoch = $3', [
      share,
      this.replica.id,
      this.replica.epoch,
    ]);
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

  async linkedAnywhere(share: string): Promise<{ uplinks: Set<string>; control: boolean }> {
    const [uplinks, control] = await Promise.all([
      this.pool.query<{ serial_number: string }>(
        `SELECT o.serial_number FROM terminal_uplinks o ${LIVE_HOLDER}`,
        [this.replica.lapseMs],
      ),
      this.pool.query(`SELECT 1 FROM share_holders o ${LIVE_HOLDER} AND o.share = $2`, [
        this.replica.lapseMs,
        share,
      ]),
    ]);
    return {
      uplinks: new Set(uplinks.rows.map((row) => row.serial_number)),
      control: control.rows.length > 0,
    };
  }

  async shareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined> {
    const { rows } = await this.pool.query<{ instance: string; epoch: string | number }>(
      `SELECT o.instance, o.epoch FROM share_holders o ${LIVE_HOLDER} AND o.share = $2`,
      [this.replica.lapseMs, share],
    );
    const row = rows[0];
    return row === undefined ? undefined : { instance: row.instance, epoch: Number(row.epoch) };
  }

  async uplinksAnywhere(serials: string[]): Promise<Map<string, string>> {
    if (serials.length === 0) return new Map();
    const { rows } = await this.pool.query<{ serial_number: string; linked_at: string }>(
      `SELECT o.serial_number, o.linked_at::text AS linked_at FROM terminal_uplinks o ${LIVE_HOLDER}
       AND o.serial_number = ANY($2::varchar[])`,
      [this.replica.lapseMs, serials],
    );
    return new Map(rows.map((row) => [row.serial_number, row.linked_at]));
  }

  /**
   * After a failed write, stores the links held here as they are now (and removes the rows of those
   * no longer held), in the order of the writes; until it succeeds, asked again each time.
   */
  repair(): void {
    if (!this.stale) return;
    this.stale = false;
    this.enqueue(() => rewriteHolders(this.pool, this.replica, this.held));
  }

  letGo(serials: readonly string[]): Promise<void> {
    for (const serial of serials) this.held.uplinks.delete(serial);
    const changes = new Map(serials.map((serial): [string, boolean] => [serial, false]));
    return new Promise((written) =>
      // A failure leaves the rows to the repair, which writes what `held` says: not these.
      this.enqueue(() => writeUplinkChanges(this.pool, this.replica, changes).finally(written)),
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
        return writeUplinkChanges(this.pool, this.replica, changes);
      });
      this.batch = batch = changes;
    }
    // Only a serial's last change counts: it says how its uplink stands.
    batch.set(serial, open);
  }

  private write(sql: string, params: unknown[]): void {
    this.enqueue(() => this.pool.query(sql, params).then(() => undefined));
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
