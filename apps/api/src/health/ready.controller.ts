import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { PublicRoute } from '../auth/public-route.decorator';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalRepository } from '../terminals/terminal.repository';

export type Readiness = { ready: true } | { ready: false; waiting_for: string[] };

class ReadinessDoc {
  @ApiProperty({ description: 'whether a request sent now can be served' }) ready!: boolean;
  @ApiPropertyOptional({
    type: [String],
    description: 'when not ready: `database`, `simulator`, `terminal <serial>`, `N more terminals`',
    example: ['simulator', 'terminal SIM0000002'],
  })
  waiting_for?: string[];
}

/** Terminals named one by one in `waiting_for`; the rest are counted, so the answer stays small. */
const NAMED_TERMINALS = 10;

/**
 * Readiness (contract §14): whether a request sent now can be served. CI waits on it instead of
 * guessing from /health, which answers as soon as the process is up.
 */
@ApiTags('health')
@PublicRoute()
@Controller('ready')
export class ReadyController {
  constructor(
    private readonly links: TerminalLinks,
    private readonly terminals: TerminalRepository,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Readiness, without credentials: 200 once every request can be served, else 503',
    description:
      '200 once the database answers, the simulator is linked and every terminal (not set offline) is linked; 503 with what it waits for.',
  })
  @ApiOkResponse({ type: ReadinessDoc, description: 'ready: `{ ready: true }`' })
  @ApiServiceUnavailableResponse({ type: ReadinessDoc, description: 'not ready yet, with what it waits for' })
  async ready(@Res({ passthrough: true }) response: Response): Promise<Readiness> {
    const waiting = await this.waitingFor();
    if (waiting.length === 0) return { ready: true };
    response.status(503);
    return { ready: false, waiting_for: waiting };
  }

  private async waitingFor(): Promise<string[]> {
    const fleet = await this.terminals.listAll().catch(() => undefined);
    if (fleet === undefined) return ['database'];
    const waiting: string[] = [];
    if (this.links.controlPeer === undefined) waiting.push('simulator');
    const down = fleet.filter((terminal) => this.links.state(terminal) === 'down');
    for (const terminal of down.slice(0, NAMED_TERMINALS)) waiting.push(`terminal ${terminal.serialNumber}`);
    if (down.length > NAMED_TERMINALS) waiting.push(`${down.length - NAMED_TERMINALS} more terminals`);
    return waiting;
  }
}
