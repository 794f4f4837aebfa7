import type { Pool } from 'pg';
import type { HeldLinks, LinkHolders } from '../routing-ports';
import type { ThisReplica } from '../this-replica';
import { rewriteHolders } from './rewrite-holders';
import { writeUplinkChanges } from './write-uplink-changes';

/** A stored owner row `o` whose replica is alive (`$1`: the lapse in milliseconds). */
const LIVE_HOLDER = `JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
  WHERE r.heartbeat_at > now() - $1 * interval '1 millisecond'`;

/** The holders' rows (terminal_uplinks, share_holders), each change one statement. */
export class PostgresLinkHolders implements LinkHolders {
  constructor(
    private readonly pool: Pool,
    private readonly replica: ThisReplica,
  ) {}

  uplinksChanged(changes: ReadonlyMap<string, boolean>): Promise<void> {
    return writeUplinkChanges(this.pool, this.replica, changes);
  }

  async controlOpened(share: string, instance: string, epoch: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (share) DO UPDATE SET instance = $2, epoch = $3, replica_id = $4, replica_epoch = $5, since = now()`,
      [share, instance, epoch, this.replica.id, this.replica.epoch],
    );
  }

  async controlClosed(share: string): Promise<void> {
    await this.pool.query(
      'DELETE FROM share_holders WHERE share = $1 AND replica_id = $2 AND replica_epoch = $3',
      [share, this.replica.id, this.replica.epoch],
    );
  }

  async liveLinks(share: string): Promise<{ uplinks: Set<string>; control: boolean }> {
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

  async liveShareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined> {
    const { rows } = await this.pool.query<{ instance: string; epoch: string | number }>(
      `SELECT o.instance, o.epoch FROM share_holders o ${LIVE_HOLDER} AND o.share = $2`,
      [this.replica.lapseMs, share],
    );
    const row = rows[0];
    return row === undefined ? undefined : { instance: row.instance, epoch: Number(row.epoch) };
  }

  async liveUplinksAmong(serials: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ serial_number: string; linked_at: string }>(
      `SELECT o.serial_number, o.linked_at::text AS linked_at FROM terminal_uplinks o ${LIVE_HOLDER}
       AND o.serial_number = ANY($2::varchar[])`,
      [this.replica.lapseMs, serials],
    );
    return new Map(rows.map((row) => [row.serial_number, row.linked_at]));
  }

  rewrite(held: HeldLinks): Promise<void> {
    return rewriteHolders(this.pool, this.replica, held);
  }
}
