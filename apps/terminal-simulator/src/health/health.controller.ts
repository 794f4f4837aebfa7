import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Fleet } from '../fleet/fleet';
import { ControlLink } from '../link/control-link';
import { ShareMembership, type ShareState } from '../link/share-membership';
import { TerminalStore } from '../store/terminal-store';

export interface SimulatorHealth {
  status: 'up' | 'down';
  database: 'up' | 'down';
  service: 'connected' | 'disconnected';
  hosted_terminals: number;
  linked_terminals: number;
  /** Events stored by the terminals and not yet acknowledged by the service. */
  queued_events: number;
  /** This process's fleet share: `refused` while another process holds it (with the service's reason). */
  share: {
    id: string;
    instance: string;
    state: ShareState;
    epoch: number | null;
    refused_reason?: string;
  };
}

@Controller('health')
export class HealthController {
  constructor(
    private readonly fleet: Fleet,
    private readonly control: ControlLink,
    private readonly store: TerminalStore,
    private readonly membership: ShareMembership,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) response: Response): Promise<SimulatorHealth> {
    const queued = await this.store.queuedCount().catch(() => undefined);
    const database = queued === undefined ? ('down' as const) : ('up' as const);
    if (database === 'down') response.status(503);
    return {
      status: database,
      database,
      service: this.control.isUp ? 'connected' : 'disconnected',
      hosted_terminals: this.fleet.size,
      linked_terminals: this.fleet.linkedCount(),
      queued_events: queued ?? 0,
      share: {
        id: this.membership.share,
        instance: this.membership.instance,
        state: this.membership.state,
        epoch: this.membership.epoch ?? null,
        ...(this.membership.refusedReason === undefined
          ? {}
          : { refused_reason: this.membership.refusedReason }),
      },
    };
  }
}
