import { Controller, Get, Inject, Res } from '@nestjs/common';
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
import { ShareRegistry } from '../link/share-registry';
import { TerminalLinks } from '../link/terminal-links';
import { LINK_ROUTING, type LinkRouting } from '../routing/link-routing';
import { TerminalRepository } from '../terminals/terminal.repository';
import { ControlLinkDoc, controlLinkView, shareToShow, type ControlLinkView } from './control-link-view';

export type Readiness = ({ ready: true } | { ready: false; waiting_for: string[] }) & {
  control_link?: ControlLinkView;
};

class ReadinessDoc {
  @ApiProperty({ description: 'whether a request sent now can be served' }) ready!: boolean;
  @ApiPropertyOptional({
    type: [String],
    description:
      'when not ready: `database`, `simulator`, `control link flapping`, `terminal <serial>`, `N more terminals`; with the fleet split over shares, `simulator <share>` and `control link flapping <share>`',
    example: ['simulator', 'terminal SIM0000002'],
  })
  waiting_for?: string[];
  @ApiPropertyOptional({
    type: ControlLinkDoc,
    description:
      'present when a simulator was refused for a fleet share in the last minute, or its link is flapping',
  })
  control_link?: ControlLinkDoc;
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
    private readonly shares: ShareRegistry,
    @Inject(LINK_ROUTING) private readonly routing: LinkRouting,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Readiness, without credentials: 200 once every request can be served, else 503',
    description:
      '200 once the database answers, the simulator is linked (its link not flapping) and every terminal (not set offline) is linked; 503 with what it waits for. A second simulator refused for the share does not make it 503: the holder still serves.',
  })
  @ApiOkResponse({ type: ReadinessDoc, description: 'ready: `{ ready: true }`' })
  @ApiServiceUnavailableResponse({ type: ReadinessDoc, description: 'not ready yet, with what it waits for' })
  async ready(@Res({ passthrough: true }) response: Response): Promise<Readiness> {
    const statuses = this.links.shares.map((share) => this.shares.status(share));
    const share = shareToShow(statuses);
    const flapping = statuses.filter((status) => status.flapping).map((status) => status.share);
    const waiting = await this.waitingFor(new Set(flapping));
    // A refused or flapping control link is shown; a quiet one adds nothing to the answer.
    const shown = share.refusedInWindow > 0 || share.flapping ? { control_link: controlLinkView(share) } : {};
    if (waiting.length === 0) return { ready: true, ...shown };
    response.status(503);
    return { ready: false, waiting_for: waiting, ...shown };
  }

  private async waitingFor(flapping: Set<string>): Promise<string[]> {
    const fleet = await this.terminals.listAll().catch(() => undefined);
    const shares = this.links.shares;
    // Several replicas: a link held by any live one serves (contract, scale-out).
    const linked = await Promise.all(shares.map((share) => this.routing.linkedAnywhere(share))).catch(
      () => null,
    );
    if (fleet === undefined || linked === null) return ['database'];
    const waiting: string[] = [];
    // One share is named as before; a split fleet names the share that waits.
    const named = (what: string, share: string): string => (shares.length === 1 ? what : `${what} ${share}`);
    for (const [index, share] of shares.entries()) {
      const controlLinked = linked[index]?.control ?? this.links.controlPeerOf(share) !== undefined;
      if (!controlLinked) waiting.push(named('simulator', share));
      // Local-form requests and sandbox controls ride that link: while it keeps dropping they fail.
      else if (flapping.has(share)) waiting.push(named('control link flapping', share));
    }
    const anywhere = linked[0];
    const uplinked = (serial: string): boolean => anywhere?.uplinks.has(serial) ?? false;
    const down = fleet.filter(
      (terminal) => this.links.state(terminal) === 'down' && !uplinked(terminal.serialNumber),
    );
    for (const terminal of down.slice(0, NAMED_TERMINALS)) waiting.push(`terminal ${terminal.serialNumber}`);
    if (down.length > NAMED_TERMINALS) waiting.push(`${down.length - NAMED_TERMINALS} more terminals`);
    return waiting;
  }
}
