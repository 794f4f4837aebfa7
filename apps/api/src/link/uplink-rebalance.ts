import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { RELINK_CLOSE_CODE } from '@tps/link';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { ApiMetrics } from '../metrics/api-metrics';
import { LINK_ROUTING, type LinkRouting } from '../routing/link-routing';
import { TerminalLinks } from './terminal-links';

/** A terminal asked to link again is not asked again for this long. */
const AGAIN_AFTER_MS = 60_000;
/** One whose new link came back to this replica soon after: the balancer does not follow its serial. */
const CAME_BACK_WITHIN_MS = 10_000;
/** Then it is left where it links for this long. */
const CAME_BACK_PAUSE_MS = 600_000;
/** How long a terminal chosen to link again may stay busy before it is left linked here for now. */
const BUSY_WAIT_MS = 10_000;
const BUSY_POLL_MS = 20;

/**
 * Sends links back to where their requests go (README, "Run a cluster"): after a deploy, the
 * links of the terminals whose requests a balancer sends to a replica that came back are still
 * held by the replicas that took them meanwhile, and every such request is handed over through
 * the database. A replica asks an idle terminal whose latest requests mostly came handed over to
 * link again, through the balancer, which sends the new link by its serial to where its requests
 * go: LINK_REBALANCE_PER_SECOND at most, one at a time, so that no herd of links moves at once.
 * First it stops being stored as the link's holder (a request for the terminal then waits a
 * moment for the new link, rather than being handed here), then it closes the link.
 */
@Injectable()
export class UplinkRebalance implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Links');
  private task: PeriodicTask | undefined;
  /** When each terminal was last asked to link again. */
  private readonly askedAt = new Map<string, number>();
  /** Terminals left alone until then: their new link came back here. */
  private readonly leftUntil = new Map<string, number>();

  constructor(
    private readonly config: ApiConfig,
    private readonly links: TerminalLinks,
    private readonly metrics: ApiMetrics,
    @Inject(LINK_ROUTING) private readonly routing: LinkRouting,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    const perSecond = this.config.LINK_REBALANCE_PER_SECOND;
    if (!this.routing.linksMove || perSecond === 0) return;
    this.task = this.tasks
      .every({ name: 'uplink-rebalance', everyMs: 1000 / perSecond, run: () => this.step() })
      .start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task?.stop();
  }

  /** A terminal's link opened here: one asked to link again that came straight back is left alone. */
  uplinkOpened(serial: string, now = Date.now()): void {
    const asked = this.askedAt.get(serial);
    if (asked !== undefined && now - asked < CAME_BACK_WITHIN_MS)
      this.leftUntil.set(serial, now + CAME_BACK_PAUSE_MS);
  }

  private async step(): Promise<void> {
    if (this.links.isHandingBack) return;
    const now = Date.now();
    const serial = this.links.arrivals
      .mostlyRouted()
      .find(
        (each) =>
          this.links.upHere(each) &&
          !this.links.busyUplink(each) &&
          now - (this.askedAt.get(each) ?? Number.NEGATIVE_INFINITY) >= AGAIN_AFTER_MS &&
          now >= (this.leftUntil.get(each) ?? 0),
      );
    if (serial === undefined) return;
    this.askedAt.set(serial, now);
    await this.routing.letGo([serial]);
    const busyUntil = Date.now() + BUSY_WAIT_MS;
    while (this.links.busyUplink(serial) && Date.now() < busyUntil)
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
    if (this.links.busyUplink(serial)) {
      // A request reached it before the letting go and still runs (a cardholder may take minutes):
      // closing now would leave its caller an unknown outcome (504 TER-002) for nothing. The link
      // stays, stored as held here again; it is asked again after AGAIN_AFTER_MS. A drain begun
      // meanwhile has let every link go and closes this one once the request ends.
      if (!this.links.isHandingBack) this.routing.uplinkOpened(serial);
      return;
    }
    this.links.closeUplink(serial, RELINK_CLOSE_CODE, 'link again: its requests reach another replica');
    this.metrics.uplinkRelinked();
    this.logger.log(
      `asked terminal ${serial} to link again: its latest requests came through another replica`,
    );
  }
}
