import { Injectable } from '@nestjs/common';
import { ApiMetrics } from '../metrics/api-metrics';
import { TerminalLinks } from './terminal-links';

/** Gives the metrics the terminal links up on this replica, counted at each scrape. */
@Injectable()
export class LinkMetrics {
  constructor(metrics: ApiMetrics, links: TerminalLinks) {
    metrics.watchLinks(() => links.linkedCount());
  }
}
