import type { LinkRouting } from '../routing/link-routing';
import type { ShareRegistry } from './share-registry';

/** The holder of a share on record elsewhere: its instance and the epoch of its grant. */
interface StoredHolder {
  instance: string;
  epoch: number;
}

/**
 * Whether an instance holds a share under an epoch, on any replica (docs/contract.md, "Several
 * replicas on one PostgreSQL database"): the share's control link on this replica decides while
 * it is held here; else the holder stored by the live replica that holds it. So a terminal's
 * uplink is taken by whichever replica it reaches, not only by the one that granted its share.
 *
 * The stored holder is read afresh whenever it disagrees with the asker, and otherwise reused for
 * `reuseMs`: an uplink's every request is checked without a round trip each, and an instance that
 * lost its share to another is refused at most `reuseMs` later.
 */
export class ShareHolding {
  private readonly read = new Map<string, { holder: StoredHolder | undefined; at: number }>();

  constructor(
    private readonly registry: ShareRegistry,
    private readonly routing: LinkRouting,
    private readonly now: () => number,
    private readonly reuseMs: number,
  ) {}

  async holds(share: string, instance: string, epoch: number): Promise<boolean> {
    if (this.registry.holds(share, instance, epoch)) return true;
    // Granted here to another instance: this replica's grant is the one its links go by.
    if (this.registry.status(share).holder !== null) return false;
    const recent = this.read.get(share);
    if (
      recent !== undefined &&
      this.now() - recent.at <= this.reuseMs &&
      matches(recent.holder, instance, epoch)
    )
      return true;
    const holder = await this.routing.shareHolder(share);
    this.read.set(share, { holder, at: this.now() });
    return matches(holder, instance, epoch);
  }
}

function matches(holder: StoredHolder | undefined, instance: string, epoch: number): boolean {
  return holder !== undefined && holder.instance === instance && holder.epoch === epoch;
}
