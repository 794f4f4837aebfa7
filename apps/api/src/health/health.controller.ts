import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SerialWriter } from '@tps/database';
import { PublicRoute } from '../auth/public-route.decorator';
import { RequestDrain } from '../drain/request-drain';
import { ShareRegistry } from '../link/share-registry';
import { TerminalLinks } from '../link/terminal-links';
import { ControlLinkDoc, controlLinkView, shareToShow, type ControlLinkView } from './control-link-view';

export interface ApiHealth {
  status: 'up' | 'down';
  database: 'up' | 'down';
  linked_terminals: number;
  simulator: 'connected' | 'disconnected';
  control_link: ControlLinkView;
  pid: number;
}

class ApiHealthDoc {
  @ApiProperty({ enum: ['up', 'down'] }) status!: string;
  @ApiProperty({ enum: ['up', 'down'] }) database!: string;
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: TerminalLinks,
    private readonly shares: ShareRegistry,
    private readonly drain: RequestDrain,
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
    // Reading is not enough: a full disk answers SELECT 1 and refuses every write.
    const readable = await this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    const database = readable ? (await this.writer.health()).state : 'down';
    // A stopping replica takes no request: a balancer that checks this route sends them elsewhere.
    const status = this.drain.isDraining ? 'down' : database;
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
