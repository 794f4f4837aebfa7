import { Controller, Get, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import { Fleet } from '../fleet/fleet';
import { ControlLink } from '../link/control-link';

export interface SimulatorHealth {
  status: 'up' | 'down';
  database: 'up' | 'down';
  service: 'connected' | 'disconnected';
  hosted_terminals: number;
  linked_terminals: number;
}

@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly fleet: Fleet,
    private readonly control: ControlLink,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) response: Response): Promise<SimulatorHealth> {
    const database = await this.dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
    if (database === 'down') response.status(503);
    return {
      status: database,
      database,
      service: this.control.isUp ? 'connected' : 'disconnected',
      hosted_terminals: this.fleet.size,
      linked_terminals: this.fleet.linkedCount(),
    };
  }
}
