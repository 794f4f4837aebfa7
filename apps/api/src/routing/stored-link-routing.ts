import type { Pool } from 'pg';
import type { LinkRouting } from './link-routing';
import type { RequestRouter } from './request-router';
import type { LinkKind } from './routing-ports';
import type { ThisReplica } from './this-replica';

/**
 * Link ownership stored for the other replicas: which replica (and epoch) holds each terminal's
 * uplink and each share's control link, written when a link opens or closes, in the order they
 * happened here, never per heartbeat. Requests for links held elsewhere go through the router.
 */
export class StoredLinkRouting implements LinkRouting {
  /** Ownership writes, one after another, so that a close never overtakes its open. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly replica: ThisReplica,
    private readonly router: RequestRouter,
    private readonly onError: (error: unknown) => void,
  ) {}

  uplinkOpened(serial: string): void {
    this.write(
      `INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (serial_number) DO UPDATE SET replica_id = $2, replica_epoch = $3, linked_at = now()`,
      [serial, this.replica.id, this.replica.epoch],
    );
  }

  uplinkClosed(serial: string): void {
    // Only this replica's: the terminal may have linked to another one meanwhile.
    this.write(
      'DELETE FROM terminal_uplinks WHERE serial_number = $1 AND replica_id = $2 AND replica_epoch = $3',
      [serial, this.replica.id, this.replica.epoch],
    );
  }

  controlOpened(share: string, instance: string, epoch: number): void {
    this.write(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (share) DO UPDATE SET instance = $2, epoch = $3, replica_id = $4, replica_epoch = $5, since = now()`,
      [share, instance, epoch, this.replica.id, this.replica.epoch],
    );
  }

  controlClosed(share: string): void {
    this.write('DELETE FROM share_holders WHERE share = $1 AND replica_id = $2 AND replica_epoch = $3', [
      share,
      this.replica.id,
      this.replica.epoch,
    ]);
  }

  route(
    link: LinkKind,
    key: string,
    serial: string,
    request: unknown,
    timeoutMs: number,
  ): Promise<{ reply: unknown } | undefined> {
    return this.router.route(link, key, serial, request, timeoutMs);
  }

  async linkedAnywhere(share: string): Promise<{ uplinks: Set<string>; control: boolean }> {
    const live = `JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
      WHERE r.heartbeat_at > now() - $1 * interval '1 millisecond'`;
    const [uplinks, control] = await Promise.all([
      this.pool.query<{ serial_number: string }>(`SELECT o.serial_number FROM terminal_uplinks o ${live}`, [
        this.replica.lapseMs,
      ]),
      this.pool.query(`SELECT 1 FROM share_holders o ${live} AND o.share = $2`, [
        this.replica.lapseMs,
        share,
      ]),
    ]);
    return {
      uplinks: new Set(uplinks.rows.map((row) => row.serial_number)),
      control: control.rows.length > 0,
    };
  }

  private write(sql: string, params: unknown[]): void {
    this.writes = this.writes
      .then(() => this.pool.query(sql, params).then(() => undefined))
      .catch(this.onError);
  }
}
