import { Injectable } from '@nestjs/common';
import { RoutedRequestDesk } from './routed-request-desk';
import { TerminalLinks } from './terminal-links';

/** How often a drain looks whether the links are quiet. */
const POLL_MS = 10;

/**
 * The links' part of a drain (contract, "Several replicas"), once no caller sends to this replica
 * any more: nothing new goes over its links, whether asked here or handed over by another replica
 * (503 TER-001: nothing was sent), and what is under way on them finishes. Then closing them cuts
 * no operation, which would leave its caller a 504 TER-002, outcome unknown.
 */
@Injectable()
export class LinkHandBack {
  constructor(
    private readonly links: TerminalLinks,
    private readonly desk: RoutedRequestDesk,
  ) {}

  /** Whether what was under way finished within `timeoutMs`. */
  async settle(timeoutMs: number): Promise<boolean> {
    this.links.stopSending();
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight() > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }

  inFlight(): number {
    return this.links.requestsInFlight + this.desk.requestsInFlight;
  }
}
