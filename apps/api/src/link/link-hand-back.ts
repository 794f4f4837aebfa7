import { Inject, Injectable } from '@nestjs/common';
import { LINK_ROUTING, type LinkRouting } from '../routing/link-routing';
import { RoutedRequestDesk } from './routed-request-desk';
import { TerminalLinks } from './terminal-links';

/** How often a drain looks whether the links are quiet. */
const POLL_MS = 10;

/**
 * The links' part of a drain (contract, "Several replicas"), once no caller sends to this replica
 * any more. First it stops being stored as their holder, so that the other replicas hand it
 * nothing more and wait a moment for each link to come up elsewhere instead; then nothing new
 * goes over its links (503 TER-001: nothing was sent), each link is closed once nothing is under
 * way on it (its terminal links again, to another replica), and what is under way finishes. So
 * no operation is cut, which would leave its caller a 504 TER-002, outcome unknown.
 */
@Injectable()
export class LinkHandBack {
  constructor(
    private readonly links: TerminalLinks,
    private readonly desk: RoutedRequestDesk,
    @Inject(LINK_ROUTING) private readonly routing: LinkRouting,
  ) {}

  /** Whether what was under way finished within `timeoutMs`. */
  async settle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    // Bounded: with the database away, the links are handed back all the same.
    await Promise.race([
      this.routing.letGo(this.links.uplinkSerials()),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, timeoutMs / 2)).unref()),
    ]);
    this.links.handBack();
    while (this.inFlight() > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }

  /** The drain's time is up: the links close with what is under way on them (504 TER-002 to its callers). */
  cut(): void {
    this.links.closeAll();
  }

  inFlight(): number {
    return this.links.requestsInFlight + this.desk.requestsInFlight;
  }
}
