import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { DatabaseProbe, SerialWriter } from '@tps/database';
import { PublicRoute } from '../auth/public-route.decorator';
import { ApiConfig } from '../config/api-config';
import { RequestDrain } from '../drain/request-drain';
import { ShareRegistry } from '../link/share-registry';
import { TerminalLinks } from '../link/terminal-links';
import { ControlLinkDoc, controlLinkView, shareToShow, type ControlLinkView } from './control-link-view';

/**
 * The database as a health check sees it: `degraded` while it answers slower than
 * DATABASE_DEGRADED_RTT_MS (the route stays 200: slowness must not become an outage), `down`
 * when it cannot be read or written; `rtt_ms`, the round trip of this check's `SELECT 1`.
 */
export interface DatabaseHealth {
  state: 'up' | 'degraded' | 'down';
  rtt_ms: number | null;
}

export interface ApiHealth {
  status: 'up' | 'down';
  database: DatabaseHealth;
  linked_terminals: number;
  simulator: 'connected' | 'disconnected';
  control_link: ControlLinkView;
  pid: number;
}

class DatabaseHealthDoc {
  @ApiProperty({ enum: ['up', 'degraded', 'down'] }) state!: string;
  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    description: "round trip of the check's SELECT 1; null when the database could not be read",
  })
  rtt_ms!: number | null;
}

class ApiHealthDoc {
  @ApiProperty({ enum: ['up', 'down'] }) status!: string;
  @ApiProperty({ type: DatabaseHealthDoc }) database!: DatabaseHealthDoc;
  @ApiProperty({ type: 'integer', minimum: 0 }) linked_terminals!: number;
  @ApiProperty({ enum: ['connected', 'disconnected'] }) simulator!: string;
  @ApiProperty({ type: ControlLinkDoc }) control_link!: ControlLinkDoc;
  @ApiProperty({
    type: 'integer',
    description:
      "this process's id: `sandbox:wait --pid` checks that the sandbox it started answers, not another on the port",
  })
  pid!: number;
}

@ApiTags('health')
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(
    private readonly writer: SerialWriter,
    private readonly database: DatabaseProbe,
    private readonly links: TerminalLinks,
    private readonly shares: ShareRegistry,
    private readonly drain: RequestDrain,
    private readonly config: ApiConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness of this replica: up, database reachable, linked terminals (no credentials)',
    description: 'The one route without a signature.',
  })
  @ApiOkResponse({ type: ApiHealthDoc, description: 'the service is up' })
  @ApiServiceUnavailableResponse({
    type: ApiHealthDoc,
    description: 'this replica cannot serve: the database does not answer, or it is stopping',
  })
  async health(@Res({ passthrough: true }) response: Response): Promise<ApiHealth> {
    const started = process.hrtime.bigint();
    const readable = await this.database.ping().then(
      () => true,
      () => false,
    );
    const rttMs = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
    // Reading is not enough: a full disk answers SELECT 1 and refuses every write.
    const writable = readable ? (await this.writer.health()).state : 'down';
    const degraded = rttMs > this.config.DATABASE_DEGRADED_RTT_MS;
    const database: DatabaseHealth = {
      state: writable === 'down' ? 'down' : degraded ? 'degraded' : 'up',
      rtt_ms: readable ? rttMs : null,
    };
    // A stopping replica takes no request: a balancer that checks this route sends them elsewhere.
    const status = this.drain.isDraining || writable === 'down' ? 'down' : 'up';
    if (status === 'down') response.status(503);
    return {
      status,
      database,
      linked_terminals: this.links.linkedCount(),
      // Connected: every share's simulator is linked to this replica.
      simulator: this.links.allControlsHere ? 'connected' : 'disconnected',
      control_link: controlLinkView(shareToShow(this.links.shares.map((share) => this.shares.status(share)))),
      pid: process.pid,
    };
  }
}
