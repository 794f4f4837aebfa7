import type { DataSource } from 'typeorm';
import { SerialWriter, sqlOf, type Sql } from '@tps/database';
import type { HeldLinks, LinkHolders } from '../routing-ports';
import type { ThisReplica } from '../this-replica';
import { rewriteHolders } from './rewrite-holders';
import { writeUplinkChanges } from './write-uplink-changes';

/** A stored owner row `o` whose replica is alive (its `?`: the lapse in milliseconds). */
const LIVE_HOLDER = `JOIN api_replicas r ON r.id = o.replica_id AND r.epoch = o.replica_epoch
  WHERE r.heartbeat_at > now() - ? * interval '1 millisecond'`;

/**
 * The holders' rows (terminal_uplinks, share_holders), each change one statement sent alone (the
 * server's transaction of its own), but the rewrite: one transaction of the writer's.
 */
export class PostgresLinkHolders implements LinkHolders {
  private readonly writer: SerialWriter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly replica: ThisReplica,
  ) {
    this.writer = new SerialWriter(dataSource);
  }

  private get sql(): Sql {
    return sqlOf(this.dataSource.manager);
  }

  uplinksChanged(changes: ReadonlyMap<string, boolean>): Promise<void> {
    return writeUplinkChanges(this.dataSource.manager, this.replica, changes);
  }

  async controlOpened(share: string, instance: string, epoch: number): Promise<void> {
    const holder = [instance, epoch, this.replica.id, this.replica.epoch];
    await this.sql.run(
      `INSERT INTO share_holders (share, instance, epoch, replica_id, replica_epoch, since) VALUES (?, ?, ?, ?, ?, now())
       ON CONFLICT (share) DO UPDATE SET instance = ?, epoch = ?, replica_id = ?, replica_epoch = ?, since = now()`,
      [share, ...holder, ...holder],
    );
  }

  async controlClosed(share: string): Promise<void> {
    await this.sql.run('DELETE FROM share_holders WHERE share = ? AND replica_id = ? AND replica_epoch = ?', [
      share,
      this.replica.id,
      this.replica.epoch,
    ]);
  }

  async liveLinks(share: string): Promise<{ uplinks: Set<string>; control: boolean }> {
    const [uplinks, control] = await Promise.all([
      this.sql.all<{ serial_number: string }>(
        `SELECT o.serial_number FROM terminal_uplinks o ${LIVE_HOLDER}`,
        [this.replica.lapseMs],
      ),
      this.sql.all(`SELECT 1 FROM share_holders o ${LIVE_HOLDER} AND o.share = ?`, [
        this.replica.lapseMs,
        share,
      ]),
    ]);
    return {
      uplinks: new Set(uplinks.map((row) => row.serial_number)),
      control: control.length > 0,
    };
  }

  async liveShareHolder(share: string): Promise<{ instance: string; epoch: number } | undefined> {
    const [row] = await this.sql.all<{ instance: string; epoch: string | number }>(
      `SELECT o.instance, o.epoch FROM share_holders o ${LIVE_HOLDER} AND o.share = ?`,
      [this.replica.lapseMs, share],
    );
    return row === undefined ? undefined : { instance: row.instance, epoch: Number(row.epoch) };
  }

  async liveUplinksAmong(serials: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.sql.all<{ serial_number: string; linked_at: string }>(
      `SELECT o.serial_number, o.linked_at::text AS linked_at FROM terminal_uplinks o ${LIVE_HOLDER}
       AND o.serial_number = ANY(?::varchar[])`,
      [this.replica.lapseMs, serials],
    );
    return new Map(rows.map((row) => [row.serial_number, row.linked_at]));
  }

  rewrite(held: HeldLinks): Promise<boolean> {
    return rewriteHolders(this.writer, this.replica, held);
  }
}
